/**
 * A tool declared in full in a plugin's manifest (`onTool:`), through the real binary against the mock LLM:
 * the model is shown the declaration before the plugin is loaded, a run that does not call it never imports
 * the plugin, and the first call activates the plugin and runs its real tool.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv, runKeel } from "../support/keel-cli.ts";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

const PARAMETERS = {
  type: "object",
  properties: { text: { type: "string", description: "what to echo" } },
  required: ["text"],
};

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(async () => {
  await llm.close();
});

it("shows a manifest-declared tool to the model before its plugin loads, and loads it on the first call", async () => {
  const root = tempDir();
  const marker = join(root, "imported.txt");
  const source = `
    import { writeFileSync } from "node:fs";
    import { definePlugin, defineTool, z } from "@keel/extensions-api";
    writeFileSync(${JSON.stringify(marker)}, "imported");
    export default definePlugin({ activate(api) {
      api.registerTool(defineTool({ name: "shout", description: "Shout text.", readOnly: true,
        parameters: z.object({ text: z.string() }),
        async execute({ text }) { return { content: text.toUpperCase() + "!" }; } }));
    } });`;
  const keel = {
    contributes: {
      tools: [{ name: "shout", description: "Repeat text loudly.", readOnly: true, parameters: PARAMETERS }],
    },
  };
  const dir = writePlugin(root, { name: "lazy-shout", keel, source });
  const env = keelEnv();
  const args = ["--provider", "openai", "--model", "gpt-4.1-mini", "--plugin", dir];
  const extraEnv = { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-e2e" };

  llm.push({ reply: { text: "No need to shout." } });
  const quiet = await runKeel(["-p", "hello", ...args], env, { extraEnv });
  expect(quiet.stderr).toBe("");
  expect(quiet.code).toBe(0);
  expect(existsSync(marker)).toBe(false);
  const tools = (
    llm.requests[0]!.body as { tools: { function: { name: string; description: string; parameters: unknown } }[] }
  ).tools;
  expect(tools.find((t) => t.function.name === "shout")!.function).toEqual({
    name: "shout",
    description: "Repeat text loudly.",
    parameters: PARAMETERS,
  });

  llm.push(
    { reply: { toolCalls: [{ id: "call_shout", name: "shout", arguments: { text: "pelican" } }] } },
    { reply: { text: "Shouted." } },
  );
  const loud = await runKeel(["-p", "shout pelican", ...args], env, { extraEnv });
  expect(loud.stderr).toBe("");
  expect(loud.stdout).toContain("Shouted.");
  expect(existsSync(marker)).toBe(true);
  expect(JSON.stringify(llm.requests[2]!.body)).toContain("PELICAN!");
});
