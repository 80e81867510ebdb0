/**
 * Bad input from the user through the real binary: a workspace that is not a folder stops keel before anything
 * starts; a settings file with a byte-order mark is read; an invalid section of the UI plugin's settings leaves
 * the UI running on its defaults, with a warning that says how to fix it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

describe("bad input from the user", () => {
  it("stops before anything starts when --cwd names a missing folder", async () => {
    const env = keelEnv({ script: [{ text: "never" }] });
    const missing = join(env.cwd, "no-such-dir");
    const run = await runKeel(["-p", "go", ...SCRIPTED, "--cwd", missing], env);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `keel: --cwd ${missing}: no such folder. Name an existing folder, or leave --cwd out ` +
        `to work in the current one.\n`,
    });
  });

  it("stops before anything starts when --cwd names a file", async () => {
    const env = keelEnv({ files: { "notes.txt": "x" }, script: [{ text: "never" }] });
    const run = await runKeel(["-p", "go", ...SCRIPTED, "--cwd=notes.txt"], env);
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "keel: --cwd notes.txt: is a file, not a folder. Name an existing folder, or leave --cwd " +
        "out to work in the current one.\n",
    });
  });

  it("reads a settings file that starts with a UTF-8 byte-order mark", async () => {
    const env = keelEnv({ script: [{ text: "from the BOM settings" }] });
    writeFileSync(
      join(env.home, "settings.json"),
      `\uFEFF${JSON.stringify({ provider: "scripted", ...JSON.parse(SCRIPTED[3]!) })}`,
    );
    const run = await runKeel(["-p", "go"], env);
    expect(run).toEqual({ code: 0, stdout: "from the BOM settings\n", stderr: "" });
  });

  it("runs the UI on its defaults when its settings section is invalid, and says how to fix it", async () => {
    const env = keelEnv({ script: [{ text: "still visible" }] });
    const run = await runKeel(["-p", "go", ...SCRIPTED, "--settings", '{"ui-print":{"progress":"loud"}}'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("still visible\n");
    expect(run.stderr).toMatch(
      new RegExp(
        String.raw`^keel: plugin @keel\/plugin-ui-print: invalid settings: "ui-print\.progress": .*\. ` +
          String.raw`Using the defaults for those keys; fix that section of settings\.json to choose your own\.\n$`,
      ),
    );
  });
});
