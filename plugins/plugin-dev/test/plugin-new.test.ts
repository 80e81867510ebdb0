/**
 * `keel plugin new` for every kind, outside the repository: the package it writes installs its dependencies
 * from a real registry (verdaccio on 127.0.0.1, holding the contract packages published as they stand and what
 * they need from npm, taken from this install: the registry has no uplink), passes `keel plugin validate`, and
 * passes its own test (`npm test`). Then `keel plugin pack`.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
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
/** The contract packages a plugin's test needs, as they stand in the repository. */
const CONTRACT = ["extensions-api", "core", "libs/provider-kit", "libs/testing"].map((p) => join(repo, p));

let registry: LocalRegistry;
const npmCache = join(tempDir("keel-npm-cache-"), "cache");

beforeAll(async () => {
  registry = await startRegistry();
  const problems: string[] = [];
  const fromNpm = runtimeClosure(CONTRACT, problems).filter((p) => !p.name.startsWith("@keel/"));
  expect(problems).toEqual([]);
  for (const dir of [...fromNpm.map((p) => p.dir), ...CONTRACT]) await registry.publish(dir);
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

describe("keel plugin pack", () => {
  it("writes the tarball npm would publish, with its sha512 and a catalog entry", async () => {
    const env = keelEnv();
    await runKeel(["plugin", "new", "@acme/keel-greet", "--kind", "tool"], env);
    const dir = join(env.cwd, "keel-greet");
    const packed = await runKeel(["plugin", "pack", dir, "--out", env.cwd, "--json"], env);
    expect(packed.stderr).toBe("");
    const result = JSON.parse(packed.stdout) as { tarball: string; integrity: string; catalogEntry: unknown };
    expect(result.tarball).toBe(join(env.cwd, "acme-keel-greet-0.1.0.tgz"));
    const digest = createHash("sha512").update(readFileSync(result.tarball)).digest("base64");
    expect(result.integrity).toBe(`sha512-${digest}`);
    expect(result.catalogEntry).toEqual({
      name: "@acme/keel-greet",
      description: "A keel plugin: a tool the model can call.",
      source: "npm:@acme/keel-greet",
      versions: [{ version: "0.1.0", integrity: result.integrity }],
      capabilities: [],
      keywords: ["keel-plugin"],
    });
  });
});
