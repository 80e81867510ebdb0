/**
 * PreToolUse and PostToolUse through the real host with the real bash tool: exit codes, JSON output
 * (permissionDecision, updatedInput, additionalContext), asking through the UI, Claude Code's tool names in
 * matchers, a script written for Claude Code (jq reading tool_input.command), and timeouts that kill the
 * script's whole process group.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { textOf } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { alive, bashCall, confirmUi, oneHook, script, withKit } from "./support.ts";

const lastResult = (kit: { toolResults(): { content: unknown }[] }) => textOf(kit.toolResults().at(-1) as never);

describe("hooks-command: PreToolUse", () => {
  it("exit 2 blocks the call with stderr as the reason the model sees", async () => {
    const hook = { type: "command", command: "echo 'no touching today' >&2; exit 2" };
    await withKit(
      { settings: oneHook("PreToolUse", hook, "Bash"), script: [bashCall("touch a.txt"), { text: "ok" }] },
      async (kit) => {
        await kit.run("make a file");
        expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
        expect(lastResult(kit)).toContain("no touching today");
        expect(kit.eventsOf("guard_blocked").map((b) => [b.hook, b.reason])).toEqual([
          ["tool_call", "no touching today"],
        ]);
      },
    );
  });

  it("exit 0 lets the call run; another exit code is reported and the call still runs", async () => {
    const hook = { type: "command", command: "echo 'linter crashed' >&2; exit 1" };
    await withKit(
      { settings: oneHook("PreToolUse", hook), script: [bashCall("touch a.txt"), { text: "ok" }] },
      async (kit) => {
        await kit.run("make a file");
        expect(existsSync(join(kit.cwd, "a.txt"))).toBe(true);
        expect(kit.problems().join("\n")).toMatch(
          /PreToolUse hook "echo 'linter crashed' >&2; exit 1" \(settings\) exited 1: linter crashed/,
        );
      },
    );
  });

  it("gets Claude Code's event JSON on stdin and its project folder in CLAUDE_PROJECT_DIR", async () => {
    const out = join(tempDir(), "event.json");
    const hook = { type: "command", command: `cat > ${out}; echo >> ${out}; echo "$CLAUDE_PROJECT_DIR" >> ${out}` };
    await withKit(
      { settings: oneHook("PreToolUse", hook, "Bash"), script: [bashCall("true"), { text: "ok" }] },
      async (kit) => {
        await kit.run("go");
        const [json, dir] = readFileSync(out, "utf8").split("\n");
        expect(JSON.parse(json!)).toMatchObject({
          hook_event_name: "PreToolUse",
          session_id: kit.runtime.sessionId,
          cwd: kit.cwd,
          tool_name: "Bash",
          tool_input: { command: "true" },
          tool_use_id: expect.any(String),
        });
        expect(dir).toBe(kit.cwd);
      },
    );
  });

  it("matchers are anchored regular expressions over keel's and Claude Code's tool names", async () => {
    const marker = join(tempDir(), "ran");
    const settings = {
      hooks: {
        PreToolUse: [
          { matcher: "Edit|Write", hooks: [{ type: "command", command: `echo edit >> ${marker}` }] },
          { matcher: "Bas", hooks: [{ type: "command", command: `echo bas >> ${marker}` }] },
          { matcher: "bash", hooks: [{ type: "command", command: `echo keel >> ${marker}` }] },
          { matcher: "Ba.*", hooks: [{ type: "command", command: `echo claude >> ${marker}` }] },
        ],
      },
    };
    await withKit({ settings, script: [bashCall("true"), { text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(readFileSync(marker, "utf8").split("\n").filter(Boolean).sort()).toEqual(["claude", "keel"]);
    });
  });

  it("permissionDecision deny blocks with its reason; updatedInput rewrites the call", async () => {
    const deny = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "use the build script",
      },
    };
    await withKit(
      {
        settings: oneHook("PreToolUse", { type: "command", command: `echo '${JSON.stringify(deny)}'` }),
        script: [bashCall("touch a.txt"), { text: "ok" }],
      },
      async (kit) => {
        await kit.run("go");
        expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
        expect(lastResult(kit)).toContain("use the build script");
      },
    );
    const rewrite = {
      hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "touch rewritten.txt" } },
    };
    await withKit(
      {
        settings: oneHook("PreToolUse", { type: "command", command: `echo '${JSON.stringify(rewrite)}'` }),
        script: [bashCall("touch a.txt"), { text: "ok" }],
      },
      async (kit) => {
        await kit.run("go");
        expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
        expect(existsSync(join(kit.cwd, "rewritten.txt"))).toBe(true);
      },
    );
  });

  it("permissionDecision ask goes through the UI: yes runs the call, no blocks it, no UI blocks it", async () => {
    const ask = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "ask",
        permissionDecisionReason: "touches the tree",
      },
    };
    const settings = oneHook("PreToolUse", { type: "command", command: `echo '${JSON.stringify(ask)}'` });
    const ui = confirmUi([true, false]);
    await withKit(
      { settings, inline: [ui.inline], script: [bashCall("touch yes.txt"), bashCall("touch no.txt"), { text: "ok" }] },
      async (kit) => {
        await kit.run("go");
        expect(existsSync(join(kit.cwd, "yes.txt"))).toBe(true);
        expect(existsSync(join(kit.cwd, "no.txt"))).toBe(false);
        expect(ui.asked).toHaveLength(2);
        expect(ui.asked[0]).toMatchObject({
          kind: "confirm",
          title: expect.stringContaining("touch yes.txt"),
          message: "touches the tree",
        });
        expect(lastResult(kit)).toContain("the user declined bash");
      },
    );
    await withKit({ settings, script: [bashCall("touch a.txt"), { text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
      expect(lastResult(kit)).toContain("there is no UI to ask");
    });
  });

  it("runs a guard written for Claude Code, reading tool_input.command with jq, unchanged", async () => {
    const guard = script(`#!/bin/bash
# A PreToolUse guard as teams write them for Claude Code.
input=$(cat)
command=$(echo "$input" | jq -r '.tool_input.command // empty')
if echo "$command" | grep -qE 'rm[[:space:]]+-rf'; then
  echo "Blocked: 'rm -rf' is not allowed here; remove files one by one" >&2
  exit 2
fi
exit 0
`);
    const settings = {
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard, timeout: 30 }] }] },
    };
    const files = { "keep/file.txt": "precious\n" };
    await withKit(
      { settings, files, script: [bashCall("rm -rf keep"), bashCall("touch fine.txt"), { text: "ok" }] },
      async (kit) => {
        await kit.run("clean up");
        expect(existsSync(join(kit.cwd, "keep/file.txt"))).toBe(true);
        expect(existsSync(join(kit.cwd, "fine.txt"))).toBe(true);
        expect(textOf(kit.toolResults()[0] as never)).toContain("Blocked: 'rm -rf' is not allowed here");
      },
    );
  });

  it("a hook that hangs is killed at its timeout together with its children, and the call goes on", async () => {
    const dir = tempDir();
    const hook = {
      type: "command",
      command: `echo $$ > ${dir}/shell; sleep 300 & echo $! > ${dir}/child; wait`,
      timeout: 1,
    };
    await withKit(
      { settings: oneHook("PreToolUse", hook), script: [bashCall("touch a.txt"), { text: "ok" }] },
      async (kit) => {
        await kit.run("go");
        expect(existsSync(join(kit.cwd, "a.txt"))).toBe(true);
        expect(kit.problems().join("\n")).toContain("timed out and was killed with its child processes");
        const pids = ["shell", "child"].map((f) => Number(readFileSync(join(dir, f), "utf8")));
        expect(pids.every((pid) => pid > 0)).toBe(true);
        expect(pids.filter(alive)).toEqual([]);
      },
    );
  });
});

describe("hooks-command: PostToolUse", () => {
  it("sees the tool's response; exit 2 and additionalContext reach the model with the result", async () => {
    const out = join(tempDir(), "event.json");
    const settings = {
      hooks: {
        PostToolUse: [
          {
            matcher: "Bash",
            hooks: [{ type: "command", command: `cat > ${out}; echo 'lint: 2 warnings' >&2; exit 2` }],
          },
          {
            hooks: [
              {
                type: "command",
                command:
                  `echo ` +
                  `'{"hookSpecificOutput":{"hookEventName":"PostToolUse",` +
                  `"additionalContext":"remember the changelog"}}'`,
              },
            ],
          },
        ],
      },
    };
    await withKit({ settings, script: [bashCall("echo hello"), { text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: "echo hello" },
        tool_response: { stdout: expect.stringContaining("hello"), interrupted: false },
      });
      const result = lastResult(kit);
      expect(result).toContain("hello");
      expect(result).toContain("lint: 2 warnings");
      expect(result).toContain("remember the changelog");
    });
  });
});
