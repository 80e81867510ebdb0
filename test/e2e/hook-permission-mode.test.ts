/**
 * A hook's input carries the permission mode in force, through the real binary: the `--permission-mode` flag,
 * else the `permissions.mode` setting, else the default (it once always said "default").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

async function modeSeen(args: string[], settings: Record<string, unknown> = {}): Promise<string> {
  const env = keelEnv({ script: [{ toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { text: "ok" }] });
  const out = join(env.home, "input.json");
  const hooks = { PreToolUse: [{ hooks: [{ type: "command", command: `cat > ${out}` }] }] };
  const run = await runKeel(
    ["-p", "go", ...SCRIPTED, "--settings", JSON.stringify({ hooks, ...settings }), ...args],
    env,
  );
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(readFileSync(out, "utf8")) as { permission_mode: string }).permission_mode;
}

describe("permission_mode in a hook's input", () => {
  it("is the flag's mode, else the setting's, else auto", async () => {
    expect(await modeSeen(["--permission-mode", "full"])).toBe("full");
    expect(await modeSeen(["--yes"], { permissions: { mode: "full" } })).toBe("full");
    expect(await modeSeen(["--permission-mode", "full"], { permissions: { mode: "ask" } })).toBe("full");
    expect(await modeSeen(["--yes"])).toBe("auto");
  });
});
