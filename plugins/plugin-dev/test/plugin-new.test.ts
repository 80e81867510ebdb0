/**
 * `keel plugin new` for every kind, outside the repository: the package it writes, with the contract packages
 * as its only dependencies, passes `keel plugin validate` and its own test (`npm test`). Then `keel plugin pack`.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel } from "../../../test/support/keel-cli.ts";
import { KIND_NAMES } from "../src/kinds.ts";

const run = promisify(execFile);
const repo = fileURLToPath(new URL("../../..", import.meta.url));

/** The package's dev dependencies: the contract packages as they stand in the repository. */
function installContract(dir: string): void {
  mkdirSync(join(dir, "node_modules", "@keel"), { recursive: true });
  for (const [name, folder] of [
    ["extensions-api", "extensions-api"],
    ["testing", "libs/testing"],
  ])
    symlinkSync(join(repo, folder!), join(dir, "node_modules", "@keel", name!));
}

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
      installContract(dir);

      const validated = await runKeel(["plugin", "validate", dir], env);
      expect(validated.stderr).toBe("");
      expect(validated.stdout).toBe(`${name}@0.1.0 is valid.\n`);
      expect(validated.code).toBe(0);

      const tested = await run("npm", ["test"], { cwd: dir }).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`npm test failed in ${dir}:\n${error.stdout}\n${error.stderr}`);
      });
      expect(tested.stdout).toMatch(/# pass 1\n/);
      expect(tested.stdout).toMatch(/# fail 0\n/);
    },
    60_000,
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
