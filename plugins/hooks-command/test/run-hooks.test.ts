/**
 * The hooks around a run: UserPromptSubmit (block, context), Stop (exit 2 continues the run with the reason),
 * SessionStart (context in the system prompt), SessionEnd, `continue: false`, the http type against a server
 * on 127.0.0.1, a plugin's hooks/hooks.json, and configuration mistakes reported by where they are.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { textOf } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { bashCall, oneHook, plugins, withKit } from "./support.ts";

/** A server on 127.0.0.1 that records each posted body and answers with the next reply. */
async function webhook(replies: { status?: number; body: unknown }[]) {
  const bodies: unknown[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    bodies.push(JSON.parse(raw));
    const reply = replies.shift() ?? { body: {} };
    res.writeHead(reply.status ?? 200, { "content-type": "application/json" }).end(JSON.stringify(reply.body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, bodies, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe("hooks-command: the run's own hooks", () => {
  it("UserPromptSubmit: exit 2 drops the prompt with the reason; plain stdout is context the model sees", async () => {
    await withKit(
      {
        settings: oneHook("UserPromptSubmit", {
          type: "command",
          command: "grep -q secret && { echo 'no secrets in prompts' >&2; exit 2; }; exit 0",
        }),
        script: [{ text: "never" }],
      },
      async (kit) => {
        await kit.run("here is my secret");
        expect(kit.eventsOf("guard_blocked").map((b) => [b.hook, b.reason])).toEqual([
          ["input", "no secrets in prompts"],
        ]);
        expect(kit.runtime.messages.filter((m) => m.role === "user")).toEqual([]);
      },
    );
    await withKit(
      {
        settings: oneHook("UserPromptSubmit", { type: "command", command: "echo 'Sprint ends Friday.'" }),
        script: [{ text: "ok" }],
      },
      async (kit) => {
        await kit.run("plan");
        expect(textOf(kit.runtime.messages[0]!)).toBe("plan\n\nSprint ends Friday.");
      },
    );
  });

  it("Stop: exit 2 sends its reason as one more message; stop_hook_active stops the loop", async () => {
    const hook = {
      type: "command",
      command: `jq -e '.stop_hook_active' >/dev/null && exit 0; echo 'run the tests first' >&2; exit 2`,
    };
    await withKit(
      { settings: oneHook("Stop", hook), script: [{ text: "done" }, { text: "tests pass" }] },
      async (kit) => {
        const result = await kit.run("fix it");
        expect(result.finalText).toBe("tests pass");
        expect(kit.runtime.messages.map((m) => [m.role, textOf(m)])).toEqual([
          ["user", "fix it"],
          ["assistant", "done"],
          ["user", "run the tests first"],
          ["assistant", "tests pass"],
        ]);
      },
    );
  });

  it("SessionStart's output joins the system prompt; SessionEnd runs when the session ends", async () => {
    const marker = join(tempDir(), "ended");
    const settings = {
      hooks: {
        SessionStart: [
          { matcher: "startup", hooks: [{ type: "command", command: "echo 'The build is red on main.'" }] },
        ],
        SessionEnd: [{ hooks: [{ type: "command", command: `cat > ${marker}` }] }],
      },
    };
    let systemPrompt = "";
    const probe = {
      name: "probe",
      plugin: {
        activate: (api: any) => api.hooks.tap("system_prompt", { stage: 1000 }, (p: string) => ((systemPrompt = p), p)),
      },
    };
    await withKit({ settings, inline: [probe], script: [{ text: "ok" }] }, async (kit) => {
      await kit.run("hi");
      expect(systemPrompt).toContain("The build is red on main.");
    });
    expect(JSON.parse(readFileSync(marker, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other" });
  });

  it("continue: false stops the run with its stopReason", async () => {
    const hook = { type: "command", command: `echo '{"continue":false,"stopReason":"policy freeze in effect"}'` };
    await withKit(
      { settings: oneHook("PreToolUse", hook), script: [bashCall("touch a.txt"), { text: "never" }] },
      async (kit) => {
        const result = await kit.run("go");
        expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
        expect(result.reason).toBe("aborted");
        expect(kit.eventsOf("guard_blocked")[0]!.reason).toBe("policy freeze in effect");
      },
    );
  });

  it(
    "the http type posts the event JSON and reads the answer like a command's stdout; a failing " +
      "status is reported",
    async () => {
      const server = await webhook([
        {
          body: {
            hookSpecificOutput: {
              hookEventName: "PreToolUse",
              permissionDecision: "deny",
              permissionDecisionReason: "the webhook says no",
            },
          },
        },
        { status: 500, body: { error: "down" } },
      ]);
      try {
        const settings = oneHook(
          "PreToolUse",
          { type: "http", url: server.url, headers: { "x-team": "core" } },
          "Bash",
        );
        await withKit(
          { settings, script: [bashCall("touch a.txt"), bashCall("touch b.txt"), { text: "ok" }] },
          async (kit) => {
            await kit.run("go");
            expect(server.bodies[0]).toMatchObject({
              hook_event_name: "PreToolUse",
              tool_name: "Bash",
              tool_input: { command: "touch a.txt" },
            });
            expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
            expect(textOf(kit.toolResults()[0] as never)).toContain("the webhook says no");
            expect(existsSync(join(kit.cwd, "b.txt"))).toBe(true);
            expect(kit.problems().join("\n")).toContain("HTTP 500");
          },
        );
      } finally {
        await server.close();
      }
    },
  );

  it("runs a plugin's hooks/hooks.json with CLAUDE_PLUGIN_ROOT set to the plugin's folder", async () => {
    const dir = join(tempDir(), "team-hooks");
    mkdirSync(join(dir, "hooks"), { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "team-hooks",
        version: "1.0.0",
        type: "module",
        keel: { apiVersion: "^1.0.0", entry: "./index.ts" },
      }),
    );
    writeFileSync(join(dir, "index.ts"), `export default { activate() {} };\n`);
    const hooks = {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: 'echo "from $CLAUDE_PLUGIN_ROOT" >&2; exit 2' }] },
      ],
    };
    writeFileSync(join(dir, "hooks", "hooks.json"), JSON.stringify({ description: "team guard", hooks }));
    await withKit({ plugins: [...plugins, dir], script: [bashCall("touch a.txt"), { text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(existsSync(join(kit.cwd, "a.txt"))).toBe(false);
      expect(textOf(kit.toolResults()[0] as never)).toContain(`from ${dir}`);
    });
  });

  it("reports each mistake in the configuration by where it is, and runs the rest", async () => {
    const marker = join(tempDir(), "ran");
    const settings = {
      hooks: {
        PreToolUse: [
          { matcher: "(", hooks: [{ type: "command", command: "exit 2" }] },
          {
            hooks: [
              { type: "webhook", url: "https://example.com" },
              { type: "command" },
              { type: "command", command: `touch ${marker}` },
            ],
          },
        ],
        BeforeEverything: [],
      },
    };
    await withKit({ settings, script: [bashCall("true"), { text: "ok" }] }, async (kit) => {
      await kit.run("go");
      expect(existsSync(marker)).toBe(true);
      const problems = kit.problems().join("\n");
      expect(problems).toContain('settings: hooks.PreToolUse[0]: matcher "(" is not a regular expression');
      expect(problems).toContain('settings: hooks.PreToolUse[1].hooks[0]: type "webhook" is not one keel runs');
      expect(problems).toContain("settings: hooks.PreToolUse[1].hooks[1]:");
      expect(problems).toContain("settings: hooks.BeforeEverything was skipped (it is not a Claude Code event)");
    });
  });
});
