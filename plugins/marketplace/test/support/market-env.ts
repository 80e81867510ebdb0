/**
 * An environment for the marketplace's end-to-end tests: a KEEL_HOME whose settings point at the test's local
 * registry, a workspace, fixture sources of every kind (a tarball, a folder, a package in the registry, a git
 * repository with tags), and the real binary to run commands with.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keelEnv, runKeel, type KeelEnv, type KeelRun } from "../../../../test/support/keel-cli.ts";
import type { LocalRegistry } from "../../../../test/support/local-registry.ts";
import { packTarball, writePackage, type FixturePackage } from "../../../../libs/installer/test/support/packages.ts";

export interface MarketEnv extends KeelEnv {
  /** Runs `keel <args>` with this home and workspace; `input` is stdin (the answers to questions). */
  keel(args: string[], input?: string): Promise<KeelRun>;
  /** A folder for fixtures outside home and workspace. */
  fixtures: string;
}

/** One cache folder for every env of a test file: jiti's compiled plugins are keyed by content, so sharing is safe. */
let sharedCache: string | undefined;

export function marketEnv(registry?: LocalRegistry): MarketEnv {
  const env = keelEnv();
  const fixtures = join(env.home, "..", "fixtures");
  mkdirSync(fixtures, { recursive: true });
  if (registry)
    writeFileSync(join(env.home, "settings.json"), JSON.stringify({ marketplace: { registry: registry.url } }));
  const cache = (sharedCache ??= join(env.home, "..", "cache"));
  return {
    ...env,
    fixtures,
    keel: (args, input) => runKeel(args, env, { input, extraEnv: { KEEL_CACHE_DIR: cache }, timeoutMs: 60_000 }),
  };
}

/** A package folder written fresh under `fixtures/<folder>`. */
export function packageDir(env: MarketEnv, folder: string, p: FixturePackage): string {
  const dir = join(env.fixtures, folder);
  rmSync(dir, { recursive: true, force: true });
  return writePackage(dir, p);
}

export async function tarball(
  env: MarketEnv,
  file: string,
  p: FixturePackage,
): Promise<{ path: string; integrity: string }> {
  const path = join(env.fixtures, file);
  const integrity = await packTarball(packageDir(env, `${file}.src`, p), path);
  return { path, integrity };
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "keel tests",
  GIT_AUTHOR_EMAIL: "tests@keel.invalid",
  GIT_COMMITTER_NAME: "keel tests",
  GIT_COMMITTER_EMAIL: "tests@keel.invalid",
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd: dir,
    env: GIT_ENV,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** A git repository holding the package, committed and tagged `v<version>`; call again to add a version. */
export function gitCommit(dir: string, p: FixturePackage): void {
  writePackage(dir, p);
  try {
    git(dir, "rev-parse", "--git-dir");
  } catch {
    git(dir, "init", "-q", "-b", "main");
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", `version ${p.version ?? "1.0.0"}`);
  git(dir, "tag", `v${p.version ?? "1.0.0"}`);
}
