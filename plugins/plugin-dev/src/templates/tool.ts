/**
 * The `tool` kind: a tool the model calls, with a setting.
 */
import { testHead, type KindTemplate } from "./template.ts";

export const toolTemplate: KindTemplate = {
  summary: "a tool the model can call",
  contributes: ({ tool }) => ({ tools: [tool] }),
  entry: ({ id, tool }) => `/**
 * ${id}: the \`${tool}\` tool greets someone by name, with the greeting the settings choose.
 */
import { definePlugin, z } from "@keel/extensions-api";
import { settings } from "./settings.ts";

export default definePlugin({
  settings,
  activate(api) {
    api.registerTool({
      name: "${tool}",
      description: "Greets someone by name.",
      parameters: z.object({ name: z.string().describe("Who to greet") }),
      readOnly: true,
      async execute({ name }) {
        return { content: [{ type: "text", text: \`\${api.settings.greeting}, \${name}!\` }] };
      },
    });
  },
});
`,
  settings: ({ id }) => `/**
 * The \`${id}\` section of settings.json.
 */
import { z } from "@keel/extensions-api";

export const settings = z
  .object({ greeting: z.string().default("Hello").describe("The word the greeting starts with.") })
  .default({ greeting: "Hello" });
`,
  test: ({ id, tool }) => `${testHead()}
test("${tool} greets with the greeting the settings choose", async () => {
  const kit = await createTestKit({
    plugins: [plugin],
    settings: { "${id}": { greeting: "Hi" } },
    script: [{ toolCalls: [{ name: "${tool}", arguments: { name: "Ada" } }] }, { text: "done" }],
  });
  try {
    await kit.run("greet Ada");
    assert.deepEqual(kit.problems(), []);
    assert.deepEqual(kit.toolResults()[0]?.content, [{ type: "text", text: "Hi, Ada!" }]);
  } finally {
    await kit.dispose();
  }
});
`,
};
