/**
 * `keel plugin new` for every kind, outside the repository: the package it writes installs its dependencies
 * from a real registry (verdaccio on 127.0.0.1, holding the contract packages published as they stand and what
 * they need from npm, taken from this install: the registry has no uplink), passes `keel plugin validate`, and
 * passes its own test (`npm test`). (`keel plugin pack`: plugin-pack.test.ts.)
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeClosure } from "../../distribution/src/packages.ts";
import { keelEnv, runKeel } from "../../../test/support/keel-cli.ts";
import { startRegistry, type LocalRegistry } from "../../../test/support/local-registry.ts";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { KIND_NAMES } from "../src/kinds.ts";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../../..", import.meta.url));
/** The keel packages a new plugin names, as they stand in the repository; what they need comes with them. */
const CONTRACT = ["extensions-api", "libs/provider-kit", "libs/testing"].map((p) => join(repo, p));

let registry: LocalRegistry;
const npmCache = join(tempDir("keel-npm-cache-"), "cache");

beforeAll(async () => {
  registry = await startRegistry();
  const problems: string[] = [];
  const needed = runtimeClosure(CONTRACT, problems);
  expect(problems).toEqual([]);
  const isKeel = (p: { name: string }) => p.name.startsWith("@keel/");
  const fromNpm = needed.filter((p) => !isKeel(p)).map((p) => p.dir);
  const ours = new Set([...needed.filter(isKeel).map((p) => p.dir), ...CONTRACT]);
  for (const dir of [...fromNpm, ...ours]) await registry.publish(dir);
}, 240_000);

afterAll(() => registry?.close());

describe("keel plugin new", () => {
  it.each(KIND_NAMES)(
    "--kind %s writes a package that validates and passes its own test outside keel",
    async (kind) => {
      const env = keelEnv();
      const name = `acme-keel-${kind}`;
      const made = await runKeel(["plugin", "new", name, "--kind", kind], env);
      expect(made.stderr).toBe("");
      expect(made.code).toBe(0);
      const dir = join(env.cwd, name);
      expect(dir.startsWith(repo)).toBe(false);
      await run("npm", ["install", "--registry", registry.url, "--no-audit", "--no-fund", "--ignore-scripts"], {
        cwd: dir,
        env: { ...process.env, npm_config_cache: npmCache },
      });
      expect(existsSync(join(dir, "node_modules", "@keel", "core", "dist", "keel-cli.cjs"))).toBe(true);

      const validated = await runKeel(["plugin", "validate", dir], env);
      expect(validated.stderr).toBe("");
      expect(validated.stdout).toBe(`${name}@0.1.0 is valid.\n`);
      expect(validated.code).toBe(0);

      // TAP, which every Node line prints alike when asked (their default reporters differ).
      const tested = await run("npm", ["test", "--", "--test-reporter=tap"], { cwd: dir }).catch(
        (error: { stdout: string; stderr: string }) => {
          throw new Error(`npm test failed in ${dir}:\n${error.stdout}\n${error.stderr}`);
        },
      );
      expect(tested.stdout).toMatch(/# pass 1\n/);
      expect(tested.stdout).toMatch(/# fail 0\n/);
    },
    120_000,
  );

  it("refuses a kind it does not know, naming the kinds", async () => {
    const made = await runKeel(["plugin", "new", "acme-x", "--kind", "widget"], keelEnv());
    expect(made.code).toBe(2);
    expect(made.stderr).toContain(`--kind ${KIND_NAMES.join("|")}`);
  });
});
