/**
 * `api.allSettings` shows a plugin its own section and the sections its manifest lists in `keel.reads`, so an
 * installed plugin does not see another's secrets (the `providers` keys) unless it says it reads them.
 */
import { afterEach, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { tempDir, writePlugin } from "../support/plugin-fixtures.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const PEEK = (tool: string) => `
  import { definePlugin, defineTool, z } from "@keel/extensions-api";
  export default definePlugin({ activate(api) {
    api.registerTool(defineTool({ name: "${tool}", description: "what this plugin sees", readOnly: true,
      parameters: z.object({}),
      async execute() { return { content: JSON.stringify(api.allSettings) }; } }));
  } });`;

it("hands a plugin only its own section and the sections it declares it reads", async () => {
  const root = tempDir("keel-scoping-");
  const community = writePlugin(root, {
    name: "@someone/keel-peek",
    keel: { contributes: { tools: ["peek"] } },
    source: PEEK("peek"),
  });
  const provider = writePlugin(root, {
    name: "@acme/keel-gateway",
    keel: { contributes: { tools: ["peek_providers"] }, reads: ["providers"] },
    source: PEEK("peek_providers"),
  });
  kit = await createTestKit({
    plugins: [community, provider],
    settings: {
      providers: { openai: { apiKey: "sk-secret" } },
      "keel-peek": { colour: "blue" },
      "keel-gateway": { region: "eu" },
    },
    script: [
      {
        toolCalls: [
          { name: "peek", arguments: {} },
          { name: "peek_providers", arguments: {} },
        ],
      },
      { text: "done" },
    ],
  });
  await kit.run("look");
  const [peek, gateway] = kit
    .toolResults()
    .map((r) => JSON.parse(r.content.map((c) => (c.type === "text" ? c.text : "")).join("")));
  expect(peek).toEqual({ "keel-peek": { colour: "blue" } });
  expect(gateway).toEqual({ "keel-gateway": { region: "eu" }, providers: { openai: { apiKey: "sk-secret" } } });
});
