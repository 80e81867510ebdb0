/**
 * `keel install ./tools/x --project` links a folder inside the project: the lock records it relative to the
 * project (`link:tools/x`) and the symlink is relative, so the project's `.keel/` works in a teammate's clone at
 * another path (it used to record `link:/abs/path`, and a clone failed with "has no package.json").
 */
import { cpSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel } from "../../../test/support/keel-cli.ts";
import { writePackage } from "../../../libs/installer/test/support/packages.ts";

describe("a project's linked folder", () => {
  it("is recorded relative to the project and still loads in a clone elsewhere", async () => {
    const env = keelEnv();
    writePackage(join(env.cwd, "tools", "x"), { name: "kp-team-tool" });
    const install = await runKeel(["install", "./tools/x", "--project", "--yes", "--trust"], env, {
      timeoutMs: 60_000,
    });
    expect(install.code, install.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(join(env.cwd, ".keel", "keel.lock"), "utf8"));
    expect(lock.plugins["kp-team-tool"].source).toBe("link:tools/x");
    expect(readlinkSync(join(env.cwd, ".keel", "plugins", "kp-team-tool"))).toBe(join("..", "..", "tools", "x"));

    const clone = keelEnv();
    rmSync(clone.cwd, { recursive: true });
    cpSync(env.cwd, clone.cwd, { recursive: true, verbatimSymlinks: true });
    rmSync(env.cwd, { recursive: true });
    const run = await runKeel(["kp-team-tool-version", "--trust"], clone, { timeoutMs: 60_000 });
    expect(run.stderr).not.toContain("package.json");
    expect(run.stdout).toBe("kp-team-tool@1.0.0\n");
  }, 120_000);
});
