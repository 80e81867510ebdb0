/**
 * `keel plugin pack` through the real binary: the tarball npm would publish, its sha512 and the catalog entry;
 * the `--out` folder made when missing, and a folder that cannot be made reported without a stack trace.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel } from "../../../test/support/keel-cli.ts";

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

  it("makes the --out folder when it does not exist (as docs/writing-plugins.md runs it)", async () => {
    const env = keelEnv();
    await runKeel(["plugin", "new", "keel-greet", "--kind", "tool"], env);
    const packed = await runKeel(["plugin", "pack", "--out", "dist"], { ...env, cwd: join(env.cwd, "keel-greet") });
    expect(packed.stderr).toBe("");
    expect(packed.code).toBe(0);
    expect(existsSync(join(env.cwd, "keel-greet", "dist", "keel-greet-0.1.0.tgz"))).toBe(true);
  });

  it("says what failed, without a stack trace, when the --out folder cannot be made", async () => {
    const env = keelEnv();
    await runKeel(["plugin", "new", "keel-greet", "--kind", "tool"], env);
    writeFileSync(join(env.cwd, "a-file"), "");
    const packed = await runKeel(["plugin", "pack", "keel-greet", "--out", "a-file/dist"], env);
    expect(packed.code).toBe(1);
    expect(packed.stderr).toMatch(/^plugin pack: could not pack .*keel-greet into .*a-file\/dist: /);
    expect(packed.stderr).not.toMatch(/\n\s+at /);
  });
});
