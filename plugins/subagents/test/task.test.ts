/**
 * The task tool: two tasks of one reply run in parallel subagents; the parent sees only their final answers;
 * a subagent's tool calls pass the session's permission policy (and hooks know which agent made them);
 * aborting the parent aborts both subagents; agent definitions pick tools and the prompt.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool, definePlugin, STAGE_SECURITY, textOf, z, type ToolResultMessage } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { afterEach, expect, it } from "vitest";
import { barrier, routedModel, task, type Seen } from "./support.ts";

const plugins = join(import.meta.dirname, "../..");
const SUBAGENTS = join(plugins, "subagents");
let kit: TestKit | undefined;
afterEach(async () => kit?.dispose());

const settings = { provider: "routed", model: "m" };

it("runs two tasks of one reply in parallel and gives the parent only their final answers", async () => {
  const bothAsking = barrier(2);
  const seen: Seen = { parentRequests: [] };
  kit = await createTestKit({
    plugins: [SUBAGENTS, join(plugins, "tools-fs"), join(plugins, "ops-local")],
    settings: { ...settings, ops: "local" },
    files: { "a.txt": "alpha", "b.txt": "beta" },
    inline: [
      routedModel(
        {
          parent: [{ toolCalls: [task("read a.txt"), task("read b.txt")] }, { text: "both done" }],
          async child(job, step) {
            const file = job.split(" ")[1]!;
            // Neither subagent gets its first reply until both have asked: sequential runs would never get here.
            if (step === 0) await bothAsking();
            if (step === 0)
              return { toolCalls: [{ name: "read", arguments: { path: file } }], usage: { input: 100, output: 10 } };
            return { text: `ANSWER for ${file}`, usage: { input: 150, output: 5 } };
          },
        },
        seen,
      ),
    ],
  });
  const result = await kit.run("go");
  expect(result.finalText).toBe("both done");
  const results = kit.runtime.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  expect(results.map((r) => [textOf(r), r.isError])).toEqual([
    ["ANSWER for a.txt", false],
    ["ANSWER for b.txt", false],
  ]);
  expect(results[0]!.details).toMatchObject({
    agent: "task:general#1",
    reason: "stop",
    usage: { input: 250, output: 15 },
  });
  // What the subagents read stays in their own histories.
  expect(kit.runtime.messages).toHaveLength(5);
  expect(JSON.stringify(seen.parentRequests.at(-1)!.messages)).not.toMatch(/alpha|beta/);
  expect(kit.eventsOf("tool_execution_start").map((e) => e.toolName)).toEqual(["task", "task"]);
});

it("judges a subagent's calls by the session's permission policy, and hooks see which agent called", async () => {
  const agents: (string | undefined)[] = [];
  kit = await createTestKit({
    plugins: [SUBAGENTS, join(plugins, "tools-fs"), join(plugins, "ops-local"), join(plugins, "permissions")],
    settings: { ...settings, ops: "local", permissions: { mode: "full", deny: ["write(secret.txt)"] } },
    inline: [
      routedModel({
        parent: [{ toolCalls: [task("write the secret")] }, { text: "reported" }],
        child: (_job, step, request) =>
          step === 0
            ? { toolCalls: [{ name: "write", arguments: { path: "secret.txt", content: "x" } }] }
            : { text: `child saw: ${textOf(request.messages.at(-1)!)}` },
      }),
      {
        name: "agent-probe",
        plugin: definePlugin({
          activate: (api) =>
            void api.hooks.tap("tool_call", { stage: STAGE_SECURITY }, (_event, ctx) => void agents.push(ctx.agent)),
        }),
      },
    ],
  });
  await kit.run("go");
  expect(existsSync(join(kit.cwd, "secret.txt"))).toBe(false);
  expect(kit.eventsOf("guard_blocked")).toEqual([
    expect.objectContaining({
      hook: "tool_call",
      agent: "task:general#1",
      subject: expect.objectContaining({ toolName: "write" }),
    }),
  ]);
  const answer = textOf(kit.runtime.messages.find((m) => m.role === "toolResult")!);
  expect(answer).toMatch(/^child saw: .*write\(secret\.txt\)/s);
  expect(agents).toEqual([undefined, "task:general#1"]);
});

it("aborting the parent aborts both subagents' running tools", async () => {
  const started = barrier(3);
  const aborted: string[] = [];
  const hang = definePlugin({
    activate: (api) =>
      api.registerTool(
        defineTool({
          name: "hang",
          description: "waits until aborted",
          readOnly: true,
          parameters: z.object({ id: z.string() }),
          async execute({ id }, ctx) {
            void started();
            await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
            aborted.push(`${ctx.agent}:${id}`);
            return { content: "stopped" };
          },
        }),
      ),
  });
  kit = await createTestKit({
    plugins: [SUBAGENTS],
    settings,
    inline: [
      { name: "hang-tool", plugin: hang },
      routedModel({
        parent: [{ toolCalls: [task("hang 1"), task("hang 2")] }, { text: "never" }],
        child: (job) => ({ toolCalls: [{ name: "hang", arguments: { id: job } }] }),
      }),
    ],
  });
  const run = kit.run("go");
  await started();
  kit.runtime.abort();
  const result = await run;
  expect(result.reason).toBe("aborted");
  expect(aborted.sort()).toEqual(["task:general#1:hang 1", "task:general#2:hang 2"]);
});

it("runs a defined agent with its tools and prompt, and refuses an unknown agent", async () => {
  const seenTools: string[][] = [];
  const home = mkdtempSync(join(tmpdir(), "keel-agents-"));
  mkdirSync(join(home, "agents"));
  writeFileSync(
    join(home, "agents", "scout.md"),
    "---\ndescription: Finds files, changes nothing.\ntools: read, find\n---\nYou are a subagent that only looks.\n",
  );
  kit = await createTestKit({
    keelHome: home,
    plugins: [SUBAGENTS, join(plugins, "tools-fs"), join(plugins, "ops-local")],
    settings: { ...settings, ops: "local" },
    inline: [
      routedModel({
        parent: [{ toolCalls: [task("look", "scout"), task("look", "nobody")] }, { text: "ok" }],
        child(_job, _step, request) {
          seenTools.push(request.tools.map((t) => t.name));
          return { text: request.systemPrompt };
        },
      }),
    ],
  });
  const description = kit.runtime.listTools().find((t) => t.name === "task")!.description;
  expect(description).toContain("- scout: Finds files, changes nothing.");
  await kit.run("go");
  expect(seenTools).toEqual([["read", "find"]]);
  const [scout, nobody] = kit.runtime.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
  expect(textOf(scout!)).toBe("You are a subagent that only looks.");
  expect(nobody!.isError).toBe(true);
  expect(textOf(nobody!)).toContain('No agent is named "nobody"; the agents are general, scout.');
});
