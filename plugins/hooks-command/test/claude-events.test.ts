/**
 * Claude Code's hook semantics keel follows beyond scripts and exit codes: PostToolUse never runs for a call
 * that never ran; a model judges a `prompt` or `agent` hook; an `async` hook runs in the background and its
 * context reaches the next prompt; a hook's `shell`; a subagent's start; and configuration keel cannot run told
 * in one short line naming where it is.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { textOf } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import { routedModel, task } from "../../subagents/test/support.ts";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { bashCall, oneHook, plugins, script, withKit } from "./support.ts";

const log = () => join(tempDir("keel-hook-log-"), "log");
const logs = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : []);

describe("hooks-command: what runs when", () => {
  it("runs no PostToolUse hook for a call a PreToolUse hook blocked", async () => {
    const out = log();
    const settings = {
      hooks: {
        ...oneHook("PreToolUse", { type: "command", command: "echo frozen >&2; exit 2" }, "Bash").hooks,
        ...oneHook("PostToolUse", { type: "command", command: `echo post >> ${out}` }).hooks,
        ...oneHook("PostToolUseFailure", { type: "command", command: `echo failure >> ${out}` }).hooks,
      },
    };
    await withKit({ settings, script: [bashCall("touch a"), bashCall("echo ran"), { text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(textOf(kit.toolResults()[0]!)).toContain("frozen");
      // The second call was blocked too; neither ran, so neither hook heard of them.
      expect(logs(out)).toEqual([]);
    });
  });

  it("a prompt hook asks the model, whose {ok: false} blocks the call with its reason", async () => {
    const judge = { text: '{"ok": false, "reason": "touching files is frozen"}' };
    const settings = oneHook("PreToolUse", { type: "prompt", prompt: "Is this safe? $ARGUMENTS" }, "Bash");
    await withKit({ settings, script: [bashCall("touch a"), judge, { text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(existsSync(join(kit.cwd, "a"))).toBe(false);
      expect(textOf(kit.toolResults()[0]!)).toContain("touching files is frozen");
    });
  });

  it("a prompt hook's {ok: true} lets the call run", async () => {
    const settings = oneHook("PreToolUse", { type: "prompt", prompt: "Is this safe?" }, "Bash");
    const script = [bashCall("touch a"), { text: '{"ok": true}' }, { text: "ok" }];
    await withKit({ settings, script, flags: { "permission-mode": "full" } }, async (kit) => {
      await kit.run("go");
      expect(existsSync(join(kit.cwd, "a"))).toBe(true);
    });
  });

  it("an agent hook has a subagent judge the event, and its {ok: false} blocks", async () => {
    const judge = { text: '{"ok": false, "reason": "the subagent found a reason"}' };
    const settings = oneHook("PreToolUse", { type: "agent", prompt: "Check this call: $ARGUMENTS" }, "Bash");
    await withKit({ settings, script: [bashCall("touch a"), judge, { text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(existsSync(join(kit.cwd, "a"))).toBe(false);
      expect(textOf(kit.toolResults()[0]!)).toContain("the subagent found a reason");
    });
  });

  it("an async hook does not hold up its event, and its context joins the next prompt", async () => {
    const gate = join(tempDir("keel-gate-"), "go");
    const hook = script(
      `#!/bin/sh\nwhile [ ! -f ${gate} ]; do sleep 0.05; done\n` +
        `echo '{"systemMessage":"lint done","hookSpecificOutput":{"additionalContext":"the linter found 2 issues"}}'\n`,
    );
    const settings = oneHook("Stop", { type: "command", command: hook, async: true });
    await withKit({ settings, script: [{ text: "first" }, { text: "second" }] }, async (kit) => {
      // The run ends while the hook still waits for the gate: nothing waited for it.
      await kit.run("one");
      writeFileSync(gate, "");
      await expect.poll(() => kit.eventsOf("notice").map((n) => n.message)).toContain("lint done");
      await kit.run("two");
      const prompts = kit.runtime.messages.filter((m) => m.role === "user").map((m) => textOf(m));
      expect(prompts).toEqual(["one", "two\n\nthe linter found 2 issues"]);
    });
  });

  it("runs a hook in the shell it names", async () => {
    const out = log();
    const settings = oneHook("Stop", { type: "command", command: `echo "$BASH_VERSION" > ${out}`, shell: "bash" });
    await withKit({ settings, script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(logs(out)[0]).toMatch(/^\d+\./);
    });
  });

  it("runs SubagentStart when a subagent starts, with its type, and not UserPromptSubmit", async () => {
    const out = log();
    const settings = {
      provider: "routed",
      model: "m",
      hooks: {
        ...oneHook("SubagentStart", { type: "command", command: `jq -r .agent_type >> ${out}` }).hooks,
        ...oneHook("UserPromptSubmit", { type: "command", command: `echo prompt >> ${out}` }).hooks,
      },
    };
    const inline = [
      routedModel({ parent: [{ toolCalls: [task("look")] }, { text: "done" }], child: () => ({ text: "seen" }) }),
    ];
    await withKit({ plugins: [...plugins, resolve("plugins/subagents")], settings, inline }, async (kit) => {
      await kit.run("delegate");
      expect(logs(out)).toEqual(["prompt", "general"]);
    });
  });
});

describe("hooks-command: hooks from several places", () => {
  it("runs the user's hooks and a trusted project's .claude/settings.json hooks of the same event", async () => {
    const out = log();
    const user = oneHook("Stop", { type: "command", command: `echo user >> ${out}` });
    const project = oneHook("Stop", { type: "command", command: `echo project >> ${out}` });
    const files = { ".claude/settings.json": JSON.stringify(project) };
    await withKit({ settings: user, files, trust: true, script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(logs(out).sort()).toEqual(["project", "user"]);
    });
  });
});

describe("hooks-command: configuration it cannot run", () => {
  it("names the file a mapped group came from, and says why an event does not run", async () => {
    const groups = [{ hooks: [{ type: "command", command: "true" }], source: ".claude/settings.json" }];
    const settings = { hooks: { PermissionRequest: groups, Sometime: groups } };
    await withKit({ settings, script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(kit.problems()).toEqual(
        expect.arrayContaining([
          expect.stringContaining(".claude/settings.json: hooks.PermissionRequest was skipped (keel does not run it:"),
          expect.stringContaining(".claude/settings.json: hooks.Sometime was skipped (it is not a Claude Code event)"),
        ]),
      );
    });
  });

  it("refuses a hooks file in another tool's shape in one short line", async () => {
    const dir = join(tempDir(), "cursor-hooks");
    mkdirSync(join(dir, "hooks"), { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "cursor-hooks",
        version: "1.0.0",
        type: "module",
        keel: { apiVersion: "^1.0.0", entry: "./index.ts" },
      }),
    );
    writeFileSync(join(dir, "index.ts"), `export default { activate() {} };\n`);
    const hooks = { sessionStart: [{ command: "./hooks/run-hook.cmd session-start" }] };
    writeFileSync(join(dir, "hooks", "hooks.json"), JSON.stringify({ version: 1, hooks }));
    await withKit({ plugins: [...plugins, dir], script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("go");
      const said = kit.problems().filter((p) => p.includes("cursor-hooks"));
      expect(said).toEqual([expect.stringContaining("its hooks are in another tool's format")]);
      expect(said[0]!.length).toBeLessThan(300);
    });
  });

  it("refuses a hooks value that is a list without echoing it", async () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ command: `step-${i}` }));
    await withKit({ settings: { hooks: many }, script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("go");
      const said = kit.problems().find((p) => p.includes('"hooks" must be'));
      expect(said).toContain("not a list of 50 entries");
      expect(said).not.toContain("step-1");
    });
  });
});
