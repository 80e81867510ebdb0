/**
 * A distribution whose plugins come from catalogs it trusts: `keel dist build` reads the manifest's catalogs
 * (one on disk, one in a local git repository), resolves each `catalog:` plugin through the one it names,
 * fetches it (a tarball beside the catalog, a package on verdaccio), checks its sha512 against the catalog and
 * locks it. The built agent's marketplace shows exactly those catalogs and, locked, adds no other.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";
import { startRegistry, type LocalRegistry } from "../support/local-registry.ts";
import { ACME_ECHO, tempDir, writePlugin } from "../support/plugin-fixtures.ts";
import { packTarball } from "../../libs/installer/test/support/packages.ts";

const cache = { KEEL_CACHE_DIR: process.env.KEEL_CACHE_DIR ?? join(homedir(), ".cache", "keel") };
let registry: LocalRegistry;
/** The sha512 verdaccio serves for acme-echo@1.2.0. */
let echoIntegrity: string;

beforeAll(async () => {
  registry = await startRegistry();
  await registry.publish(writePlugin(tempDir(), ACME_ECHO));
  const meta = (await (await fetch(new URL("acme-echo", registry.url))).json()) as {
    versions: Record<string, { dist: { integrity: string } }>;
  };
  echoIntegrity = meta.versions["1.2.0"]!.dist.integrity;
}, 60_000);

afterAll(() => registry?.close());

const owner = { name: "Acme" };

/** A catalog on disk with a tarball beside it; its sha512 as given, or the tarball's own. */
async function diskCatalog(dir: string, integrity?: string): Promise<void> {
  const source =
    'import { definePlugin } from "@keel/extensions-api";\nexport default definePlugin({ activate() {} });\n';
  const src = writePlugin(join(dir, "src"), { name: "acme-hello", version: "1.0.0", source });
  const real = await packTarball(src, join(dir, "acme-hello-1.0.0.tgz"));
  const versions = [{ version: "1.0.0", integrity: integrity ?? real }];
  const plugins = [{ name: "acme-hello", source: "./acme-hello-1.0.0.tgz", versions }];
  writeFileSync(join(dir, "marketplace.json"), JSON.stringify({ name: "acme-disk", owner, plugins }));
}

/** A git repository holding a catalog that gives acme-echo from npm, with verdaccio's sha512. */
function gitCatalog(dir: string): string {
  if (existsSync(dir)) return `git:file://${dir}`;
  mkdirSync(dir, { recursive: true });
  const plugins = [
    { name: "acme-echo", source: "npm:acme-echo", versions: [{ version: "1.2.0", integrity: echoIntegrity }] },
  ];
  writeFileSync(join(dir, "marketplace.json"), JSON.stringify({ name: "acme-tools", owner, plugins }));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@keel.invalid", ...args], { cwd: dir });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "catalog");
  return `git:file://${dir}`;
}

function manifest(dir: string, over: Record<string, unknown> = {}): string {
  const file = join(dir, "distribution.json");
  const content = {
    name: "acme-agent",
    command: "acme",
    version: "1.0.0",
    plugins: [
      { name: "@keel/plugin-provider-scripted", version: "1.0.0" },
      { name: "@keel/plugin-session-jsonl", version: "1.0.0" },
      { name: "@keel/plugin-ui-print", version: "1.0.0" },
      { name: "@keel/plugin-marketplace", version: "1.0.0" },
      { name: "acme-echo", version: "1.2.0", source: "catalog:tools" },
      { name: "acme-hello", version: "1.0.0", source: "catalog:disk" },
    ],
    catalogs: [
      { name: "tools", source: gitCatalog(join(dir, "tools-repo")) },
      { name: "disk", source: "./disk" },
    ],
    lockCatalogs: true,
    ...over,
  };
  writeFileSync(file, JSON.stringify(content));
  return file;
}

function builderEnv(): KeelEnv {
  const env = keelEnv({ script: [{ toolCalls: [{ name: "echo", arguments: { text: "hi" } }] }, { text: "done" }] });
  writeFileSync(join(env.home, "settings.json"), JSON.stringify({ marketplace: { registry: registry.url } }));
  return env;
}

describe("keel dist build with catalog: plugins", () => {
  it("resolves them through the manifest's catalogs only, locks them, and the agent trusts exactly those", async () => {
    const env = builderEnv();
    const dir = tempDir("keel-dist-catalog-");
    mkdirSync(join(dir, "disk"));
    await diskCatalog(join(dir, "disk"));
    const out = join(dir, "out");
    const built = await runKeel(["dist", "build", manifest(dir), "--out", out], env, { timeoutMs: 90_000 });
    expect(built.stderr).toContain('dist: acme-echo@1.2.0 from npm:acme-echo@1.2.0 (catalog "tools")');
    expect(built.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(out, "bundled", "keel.lock"), "utf8"));
    expect(lock.plugins["acme-echo"]).toMatchObject({
      version: "1.2.0",
      catalog: "tools",
      integrity: echoIntegrity,
      source: "acme-echo@1.2.0@tools",
    });
    expect(lock.plugins["acme-hello"]).toMatchObject({ version: "1.0.0", catalog: "disk" });

    const run = { bin: join(out, "bin", "acme.cjs"), extraEnv: { HOME: tempDir("keel-dist-catalog-home-"), ...cache } };
    const ran = await runKeel(["-p", "echo hi", "--mode", "json", ...SCRIPTED], env, run);
    expect(ran.stdout).toContain("echo: hi");
    expect(ran.code).toBe(0);

    const listed = await runKeel(["market", "list"], env, run);
    expect(
      listed.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("  ")[0]),
    ).toEqual(["disk", "tools"]);
    expect(listed.stdout).toContain("with acme)");
    const other = join(dir, "other");
    mkdirSync(other);
    writeFileSync(join(other, "marketplace.json"), JSON.stringify({ name: "other", owner, plugins: [] }));
    const added = await runKeel(["market", "add", other], env, run);
    expect(added.stderr).toContain("acme: the acme distribution trusts only its own catalogs (disk, tools)");
    expect(added.code).toBe(1);
    const removed = await runKeel(["market", "remove", "tools"], env, run);
    expect(removed.stderr).toContain('the catalog "tools" comes with the acme distribution');

    // The managed settings block a catalog the distribution ships, too: it is neither listed nor used.
    const managed = join(dir, "managed.json");
    writeFileSync(managed, JSON.stringify({ plugins: { blockedCatalogs: ["tools"] } }));
    const policed = { ...run, extraEnv: { ...run.extraEnv, KEEL_MANAGED_SETTINGS: managed } };
    expect((await runKeel(["market", "list"], env, policed)).stdout).not.toContain("tools");
    const blocked = await runKeel(["install", "acme-echo@tools", "--yes"], env, policed);
    expect(blocked.stderr).toContain(
      `the catalog "tools" is blocked by plugins.blockedCatalogs of the managed settings`,
    );
  }, 180_000);

  it("refuses a tarball whose sha512 is not the catalog's, and a catalog the manifest does not trust", async () => {
    const env = builderEnv();
    const dir = tempDir("keel-dist-catalog-");
    mkdirSync(join(dir, "disk"));
    await diskCatalog(join(dir, "disk"), `sha512-${Buffer.alloc(64).toString("base64")}`);
    const out = join(dir, "out");
    const plugins = [{ name: "acme-hello", version: "1.0.0", source: "catalog:disk" }];
    const bad = await runKeel(["dist", "build", manifest(dir, { plugins }), "--out", out], env, { timeoutMs: 60_000 });
    expect(bad.stderr).toMatch(/dist: plugin acme-hello@1\.0\.0: .*sha512/);
    expect(bad.code).toBe(2);
    expect(existsSync(out)).toBe(false);

    const strangers = [{ name: "acme-hello", version: "1.0.0", source: "catalog:elsewhere" }];
    const untrusted = await runKeel(["dist", "build", manifest(dir, { plugins: strangers }), "--out", out], env);
    expect(untrusted.stderr).toContain(
      'dist: plugin acme-hello@1.0.0 comes from the catalog "elsewhere", which the manifest\'s "catalogs" do not ' +
        "name (it trusts: tools, disk).",
    );
    expect(untrusted.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
