/**
 * A project's hooks and trust, through the real binary: the scripts its hooks run are part of what the user
 * trusted (an edited guard script asks again and does not run); a run that lost the hooks the folder had when it
 * was trusted says so in a warning of its own; and with `projectHooks: "required"` in the managed settings, an
 * untrusted project's run refuses every tool call instead of running it without the project's guard.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";

const touchCall = { toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] };

/** A project whose PreToolUse hook runs `.keel/hooks/guard.sh`, which refuses every call. */
function guardedProject(): KeelEnv {
  const env = keelEnv({ script: [touchCall, { text: "done" }] });
  const hooks = { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: ".keel/hooks/guard.sh" }] }] };
  mkdirSync(join(env.cwd, ".keel", "hooks"), { recursive: true });
  writeFileSync(join(env.cwd, ".keel", "settings.json"), JSON.stringify({ hooks }));
  writeGuard(env, "echo 'guard: no shell today' >&2; exit 2");
  return env;
}

function writeGuard(env: KeelEnv, body: string): void {
  const path = join(env.cwd, ".keel", "hooks", "guard.sh");
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

const play = (env: KeelEnv, extra: string[] = [], extraEnv: Record<string, string> = {}) =>
  runKeel(["-p", "make a file", "--permission-mode", "full", ...SCRIPTED, ...extra], env, { extraEnv });

describe("a project's hooks and its trust", () => {
  it("an edited hook script is not trusted: it does not run, and the run says it lost the guard", async () => {
    const env = guardedProject();
    expect((await runKeel(["trust"], env)).code).toBe(0);
    const guarded = await play(env);
    expect(guarded.code, guarded.stderr).toBe(0);
    expect(existsSync(join(env.cwd, "made.txt"))).toBe(false);

    writeGuard(env, "touch edited-ran; exit 0");
    const edited = await play(env);
    expect(edited.code, edited.stderr).toBe(0);
    expect(existsSync(join(env.cwd, "edited-ran"))).toBe(false);
    expect(edited.stderr).toContain("This folder is not trusted");
    expect(edited.stderr).toContain(".keel/hooks/guard.sh");
    expect(edited.stderr).toMatch(/WARNING: this run has none of this project's hooks \(PreToolUse\)/);
  });

  it("a folder never trusted is not warned about losing hooks it never had", async () => {
    const env = guardedProject();
    const run = await play(env);
    expect(run.stderr).toContain("This folder is not trusted");
    expect(run.stderr).not.toContain("WARNING");
  });

  it("projectHooks: required in the managed settings refuses every tool call of an untrusted project", async () => {
    const env = guardedProject();
    const managed = join(env.home, "..", "managed.json");
    writeFileSync(managed, JSON.stringify({ projectHooks: "required" }));
    const run = await play(env, ["--mode", "json"], { KEEL_MANAGED_SETTINGS: managed });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(env.cwd, "made.txt"))).toBe(false);
    expect(run.stderr).toContain("No tool runs here: this project's hooks (PreToolUse) are required");
    const blocked = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((e) => e.type === "guard_blocked");
    expect(blocked.map((e) => e.reason)).toEqual([expect.stringContaining("No tool runs here")]);

    // Trusted, the project's own guard decides.
    const trusted = await play(env, ["--trust"], { KEEL_MANAGED_SETTINGS: managed });
    expect(trusted.stderr).not.toContain("No tool runs here");
    expect(existsSync(join(env.cwd, "made.txt"))).toBe(false);
    writeGuard(env, "exit 0");
    await play(env, ["--trust"], { KEEL_MANAGED_SETTINGS: managed });
    expect(existsSync(join(env.cwd, "made.txt"))).toBe(true);
  });

  it("without the setting, an untrusted project's run goes on without its hooks", async () => {
    const env = guardedProject();
    await play(env);
    expect(existsSync(join(env.cwd, "made.txt"))).toBe(true);
  });
});
