/**
 * What a script written for Claude Code reads and writes, through the real host with the real file and bash
 * tools: `tool_input` and `tool_response` in Claude Code's field names, `updatedInput` in those names mapped
 * back, `transcript_path` naming a real file in Claude Code's transcript shape, and the Notification and
 * PreCompact events.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { definePlugin, textOf } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { bashCall, oneHook, plugins, script, withKit } from "./support.ts";

const withFs = [...plugins, resolve("plugins/tools-fs")];
const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
/** A hook that appends each event JSON it gets to `file`, one a line. */
const recorder = (file: string) => ({ type: "command", command: `cat >> ${file}; echo >> ${file}` });
const recorded = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);

describe("hooks-command: Claude Code's tool_input and tool_response", () => {
  it(
    "PreToolUse sends Read, Write, Edit, MultiEdit, Bash, Grep and Glob inputs under Claude Code's " + "names",
    async () => {
      const out = join(tempDir(), "events.jsonl");
      const turns = [
        call("write", { path: "notes.txt", content: "one\ntwo\n" }),
        call("read", { path: "notes.txt", offset: 1, limit: 5 }),
        call("edit", { path: "notes.txt", edits: [{ oldText: "one", newText: "uno" }] }),
        call("edit", {
          path: "notes.txt",
          edits: [
            { oldText: "uno", newText: "1" },
            { oldText: "two", newText: "2" },
          ],
        }),
        call("bash", { command: "true", timeout: 5, background: false }),
        call("grep", { pattern: "2", ignoreCase: true, context: 1, limit: 3 }),
        call("find", { pattern: "*.txt", path: "." }),
        { text: "ok" },
      ];
      await withKit({ plugins: withFs, settings: oneHook("PreToolUse", recorder(out)), script: turns }, async (kit) => {
        await kit.run("go");
        const file = join(kit.cwd, "notes.txt");
        expect(readFileSync(file, "utf8")).toBe("1\n2\n");
        expect(recorded(out).map((e) => [e.tool_name, e.tool_input])).toEqual([
          ["Write", { file_path: file, content: "one\ntwo\n" }],
          ["Read", { file_path: file, offset: 1, limit: 5 }],
          ["Edit", { file_path: file, old_string: "one", new_string: "uno", replace_all: false }],
          [
            "MultiEdit",
            {
              file_path: file,
              edits: [
                { old_string: "uno", new_string: "1", replace_all: false },
                { old_string: "two", new_string: "2", replace_all: false },
              ],
            },
          ],
          ["Bash", { command: "true", timeout: 5000, run_in_background: false }],
          ["Grep", { pattern: "2", "-i": true, "-C": 1, head_limit: 3, output_mode: "content", "-n": true }],
          ["Glob", { pattern: "*.txt", path: kit.cwd }],
        ]);
      });
    },
  );

  it("updatedInput in Claude Code's names rewrites keel's call (a partial one keeps the other fields)", async () => {
    const rewrite = (updatedInput: Record<string, unknown>) => ({
      type: "command",
      command: `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput } })}'`,
    });
    const settings = {
      hooks: {
        PreToolUse: [
          { matcher: "Write", hooks: [rewrite({ file_path: "elsewhere.txt" })] },
          { matcher: "Edit", hooks: [rewrite({ new_string: "edited by the hook" })] },
          { matcher: "Bash", hooks: [rewrite({ command: "touch from-hook.txt", timeout: 3000 })] },
        ],
      },
    };
    const turns = [
      call("write", { path: "asked.txt", content: "hello" }),
      call("edit", { path: "elsewhere.txt", edits: [{ oldText: "hello", newText: "by the model" }] }),
      bashCall("touch from-model.txt"),
      { text: "ok" },
    ];
    await withKit({ plugins: withFs, settings, script: turns }, async (kit) => {
      await kit.run("go");
      expect(existsSync(join(kit.cwd, "asked.txt"))).toBe(false);
      expect(readFileSync(join(kit.cwd, "elsewhere.txt"), "utf8")).toBe("edited by the hook");
      expect(existsSync(join(kit.cwd, "from-hook.txt"))).toBe(true);
      expect(existsSync(join(kit.cwd, "from-model.txt"))).toBe(false);
    });
  });

  it("an updatedInput keel's tool cannot do (Edit's replace_all) refuses the call, saying why", async () => {
    const updatedInput = { replace_all: true };
    const hook = {
      type: "command",
      command: `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput } })}'`,
    };
    const turns = [call("edit", { path: "a.txt", edits: [{ oldText: "x", newText: "y" }] }), { text: "ok" }];
    await withKit(
      { plugins: withFs, files: { "a.txt": "x x\n" }, settings: oneHook("PreToolUse", hook, "Edit"), script: turns },
      async (kit) => {
        await kit.run("go");
        expect(readFileSync(join(kit.cwd, "a.txt"), "utf8")).toBe("x x\n");
        expect(textOf(kit.toolResults()[0]!)).toContain("replace_all, which keel's edit tool does not do");
      },
    );
  });

  it(
    "PostToolUse sends Claude Code's tool_response (Bash stdout, Write and Edit filePath); a failure goes to " +
      "PostToolUseFailure with its error",
    async () => {
      const out = join(tempDir(), "events.jsonl");
      const turns = [
        bashCall("echo hello"),
        call("write", { path: "new.txt", content: "a" }),
        call("edit", { path: "new.txt", edits: [{ oldText: "a", newText: "b" }] }),
        call("read", { path: "missing.txt" }),
        { text: "ok" },
      ];
      const settings = {
        hooks: {
          ...oneHook("PostToolUse", recorder(out)).hooks,
          ...oneHook("PostToolUseFailure", recorder(out)).hooks,
        },
      };
      await withKit({ plugins: withFs, settings, script: turns }, async (kit) => {
        await kit.run("go");
        const file = join(kit.cwd, "new.txt");
        const responses = recorded(out).map((e) => [e.hook_event_name, e.tool_name, e.tool_response ?? e.error]);
        expect(responses).toEqual([
          [
            "PostToolUse",
            "Bash",
            { stdout: expect.stringContaining("hello"), stderr: "", interrupted: false, isImage: false },
          ],
          ["PostToolUse", "Write", { type: "create", filePath: file, content: "a", success: true }],
          ["PostToolUse", "Edit", { filePath: file, oldString: "a", newString: "b", replaceAll: false, success: true }],
          ["PostToolUseFailure", "Read", expect.stringContaining("missing.txt")],
        ]);
      });
    },
  );
});

describe("hooks-command: transcript_path", () => {
  it(
    "names a file in Claude Code's transcript shape that a Stop script reads the last answer from " + "with jq",
    async () => {
      const out = join(tempDir(), "last-answer.txt");
      // The usual Claude Code Stop hook: the text of the last assistant line of the transcript.
      const stop = script(`#!/bin/bash
transcript=$(jq -r '.transcript_path')
jq -rs '[.[] | select(.type == "assistant")] | last | .message.content[] | select(.type == "text") | .text' \\
  "$transcript" > ${out}
`);
      const turns = [bashCall("echo hi"), { text: "all done here" }];
      await withKit({ settings: oneHook("Stop", { type: "command", command: stop }), script: turns }, async (kit) => {
        await kit.run("go");
        expect(readFileSync(out, "utf8").trim()).toBe("all done here");
        const lines = readFileSync(join(kit.runtime.dataDir, "transcript.jsonl"), "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l));
        expect(lines.map((l) => l.type)).toEqual(["user", "assistant", "user", "assistant"]);
        expect(lines[1].message.content).toContainEqual(
          expect.objectContaining({ type: "tool_use", name: "Bash", input: { command: "echo hi" } }),
        );
        expect(lines[2].message.content[0]).toMatchObject({ type: "tool_result", is_error: false });
        expect(lines[2].parentUuid).toBe(lines[1].uuid);
        expect(lines.every((l) => l.sessionId === kit.runtime.sessionId)).toBe(true);
      });
    },
  );
});

describe("hooks-command: Notification and PreCompact", () => {
  it("Notification runs when keel asks the user something, with the question as its message", async () => {
    const [approvals, texts] = [join(tempDir(), "approvals.jsonl"), join(tempDir(), "texts.jsonl")];
    const asker = {
      name: "asker",
      plugin: definePlugin({
        activate(api) {
          api.hooks.tap("input", async () => {
            await api.runtime.ask({ kind: "confirm", title: "Deploy now?", message: "prod is frozen" });
            await api.runtime.ask({ kind: "input", title: "Your name?" });
          });
        },
      }),
    };
    const settings = {
      hooks: {
        Notification: [
          { matcher: "permission_prompt", hooks: [recorder(approvals)] },
          { matcher: "elicitation_dialog", hooks: [recorder(texts)] },
        ],
      },
    };
    await withKit({ settings, inline: [asker], script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("go");
      // Not awaited by keel (a notifier must not hold up the question): wait for the files.
      const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").length - 1 : 0);
      await expect.poll(() => lines(approvals) + lines(texts)).toBe(2);
      expect(recorded(approvals)).toEqual([
        expect.objectContaining({
          hook_event_name: "Notification",
          message: "Deploy now?: prod is frozen",
          notification_type: "permission_prompt",
          transcript_path: join(kit.runtime.dataDir, "transcript.jsonl"),
        }),
      ]);
      expect(recorded(texts)).toEqual([
        expect.objectContaining({ message: "Your name?", notification_type: "elicitation_dialog" }),
      ]);
    });
  });

  it("PreCompact runs before a compaction with its trigger; exit 2 stops the compaction", async () => {
    const out = join(tempDir(), "events.jsonl");
    const summarizer = {
      name: "summarizer",
      plugin: definePlugin({
        activate(api) {
          api.hooks.tap("compact", (request) => ({
            summary: "what happened",
            firstKeptIndex: request.messages.length - 1,
          }));
        },
      }),
    };
    const record = oneHook("PreCompact", recorder(out), "manual");
    await withKit({ settings: record, inline: [summarizer], script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(await kit.runtime.compact()).toBeDefined();
      expect(recorded(out)).toEqual([
        expect.objectContaining({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "" }),
      ]);
    });
    const block = oneHook("PreCompact", { type: "command", command: "echo 'keep it all' >&2; exit 2" });
    await withKit({ settings: block, inline: [summarizer], script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("go");
      const before = kit.runtime.messages.length;
      expect(await kit.runtime.compact()).toBeUndefined();
      expect(kit.runtime.messages).toHaveLength(before);
      expect(kit.eventsOf("guard_blocked").map((b) => [b.hook, b.reason])).toEqual([["compact_before", "keep it all"]]);
    });
  });
});
