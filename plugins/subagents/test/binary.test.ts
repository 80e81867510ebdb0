/**
 * Subagents in the real binary against a mock OpenAI server: a project's agent definition is used only once the
 * folder is trusted; the subagent's request carries the definition's prompt and only its tools.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keelEnv, runKeel } from "../../../test/support/keel-cli.ts";

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(() => llm.close());

const SCOUT = "---\ndescription: Finds files and changes nothing.\ntools: [find, read]\n---\nYou are the scout.\n";

/** The parent delegates to scout; `answers` are the replies after that (the child's, the parent's, …). */
async function delegate(extra: string[], answers: string[]) {
  const env = keelEnv();
  mkdirSync(join(env.cwd, ".keel", "agents"), { recursive: true });
  writeFileSync(join(env.cwd, ".keel", "agents", "scout.md"), SCOUT);
  const before = llm.requests.length;
  llm.push(
    {
      reply: {
        toolCalls: [{ name: "task", arguments: { description: "look", prompt: "list files", agent: "scout" } }],
      },
    },
    ...answers.map((text) => ({ reply: { text } })),
  );
  const run = await runKeel(["-p", "go", "--provider", "openai", "--model", "gpt-4.1-mini", ...extra], env, {
    extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" },
    timeoutMs: 60_000,
  });
  return { run, requests: llm.requests.slice(before).map((r) => r.body) };
}

it("ignores an untrusted project's agent definitions and says so", async () => {
  const { run, requests } = await delegate([], ["no scout"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(".keel/agents");
  const parentTools = requests[0]!.tools.map((t: { function: { name: string } }) => t.function.name);
  expect(parentTools).toContain("task");
  expect(JSON.stringify(requests[0]!.tools)).not.toContain("scout");
  expect(JSON.stringify(requests[1]!.messages.at(-1))).toContain('No agent is named \\"scout\\"');
});

it("runs a trusted project's agent with its prompt and only its tools", async () => {
  const { run, requests } = await delegate(["--trust"], ["SCOUT REPORT", "done"]);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("done\n");
  const child = requests[1]!;
  expect(child.messages[0].content).toMatch(/^You are the scout\./);
  expect(child.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(["find", "read"]);
  expect(JSON.stringify(requests[2]!.messages.at(-1))).toContain("SCOUT REPORT");
});
