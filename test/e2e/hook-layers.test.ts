/**
 * Hooks from every settings layer add up, through the real binary: the user's file, a trusted project's
 * `.keel/settings.json` and `.claude/settings.json`, `--settings` and the managed file each add a PreToolUse hook
 * and every one runs; no layer below the managed one can take another's hooks away (an empty list, `null`,
 * Claude Code's `disableAllHooks`); only the managed file can (`disableAllHooks`, `allowManagedHooksOnly`).
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";

const LAYERS = ["user", "project", "claude", "settings", "managed"] as const;

/** A PreToolUse hook that appends `name` to the log. */
const logHook = (log: string, name: string) => ({
  PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `echo ${name} >> ${log}` }] }],
});

function writeJson(path: string, value: unknown): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
  return path;
}

/** Every layer holds one logging hook; `over` adds keys to a layer. Returns the log's lines after one bash call. */
async function runLayers(over: Partial<Record<(typeof LAYERS)[number], Record<string, unknown>>> = {}) {
  const env: KeelEnv = keelEnv({
    script: [{ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { text: "done" }],
  });
  const log = join(env.home, "hooks.log");
  const layer = (name: (typeof LAYERS)[number]) => ({ hooks: logHook(log, name), ...over[name] });
  writeJson(join(env.home, "settings.json"), layer("user"));
  writeJson(join(env.cwd, ".keel", "settings.json"), layer("project"));
  writeJson(join(env.cwd, ".claude", "settings.json"), layer("claude"));
  const managed = writeJson(join(env.home, "..", "etc", "managed.json"), layer("managed"));
  const run = await runKeel(
    ["-p", "go", "--trust", "--permission-mode", "full", ...SCRIPTED, "--settings", JSON.stringify(layer("settings"))],
    env,
    { extraEnv: { KEEL_MANAGED_SETTINGS: managed } },
  );
  expect(run.code, run.stderr).toBe(0);
  const lines = existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
  return { lines: lines.sort(), run };
}

describe("hooks from every settings layer", () => {
  it("run side by side: the user's, the project's two files', --settings' and the managed file's", async () => {
    const { lines } = await runLayers();
    expect(lines).toEqual([...LAYERS].sort());
  });

  it.each([
    ["an empty list", { hooks: { PreToolUse: [] } }],
    ["null for the event", { hooks: { PreToolUse: null } }],
    ["null for every hook", { hooks: null }],
    ["Claude Code's disableAllHooks", { disableAllHooks: true, allowManagedHooksOnly: true }],
  ])("cannot be taken away by %s in any layer below the managed one", async (_, value) => {
    for (const name of ["user", "project", "claude", "settings"] as const) {
      const { lines, run } = await runLayers({ [name]: value });
      if ("disableAllHooks" in value && name !== "claude")
        expect(run.stderr).toContain('"disableAllHooks" turns hooks off only in the managed settings');
      // A layer that sets its own `hooks` has no logging hook of its own; Claude Code's file's disableAllHooks
      // turns its own hooks off.
      const own = "hooks" in value || (name === "claude" && "disableAllHooks" in value);
      const kept = LAYERS.filter((l) => !own || l !== name);
      expect(lines, `${name} sets ${JSON.stringify(value)}`).toEqual([...kept].sort());
    }
  });

  it("are turned off only by the managed file (disableAllHooks; allowManagedHooksOnly keeps its own)", async () => {
    expect((await runLayers({ managed: { disableAllHooks: true } })).lines).toEqual([]);
    expect((await runLayers({ managed: { allowManagedHooksOnly: true } })).lines).toEqual(["managed"]);
  });
});
