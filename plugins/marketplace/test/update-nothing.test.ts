/** `keel update` with nothing installed, through the real binary: it says so instead of printing nothing. */
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel } from "../../../test/support/keel-cli.ts";

describe("keel update with nothing installed", () => {
  it("says there is nothing to update, and how to install", async () => {
    const run = await runKeel(["update"], keelEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Nothing to update: no plugin is installed for keel (`keel install <source>`).\n");
  });

  it("says so for the project with --project", async () => {
    const run = await runKeel(["update", "--project"], keelEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Nothing to update: no plugin is installed in this project");
  });
});
