/**
 * The `provider` kind: a model API. The template's model answers locally (it repeats the prompt), so the
 * package runs as it is; a real one streams a vendor's wire format, most simply through `@keel/provider-kit`.
 */
import { testHead, type KindTemplate } from "./template.ts";

export const providerTemplate: KindTemplate = {
  summary: "a model provider",
  contributes: ({ id }) => ({ providers: [id] }),
  entry: ({ id }) => `/**
 * ${id}: a provider whose one model answers with the prompt it was given, after the prefix the settings choose.
 * Replace \`stream\` with calls to your model's API (or use registerCompatibleProvider of @keel/provider-kit).
 */
import { definePlugin, textOf } from "@keel/extensions-api";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { settings } from "./settings.ts";

export default definePlugin({
  settings,
  activate(api) {
    api.registerProvider({
      id: "${id}",
      models: () => [{ id: "echo", provider: "${id}", contextWindow: 100_000, maxOutput: 4_096 }],
      async *stream(request) {
        const last = [...request.messages].reverse().find((m) => m.role === "user");
        const reply = new AssistantMessageBuilder("${id}", "echo");
        yield reply.start();
        const text = reply.beginText();
        yield text;
        yield reply.appendText(text.index, \`\${api.settings.prefix}\${last ? textOf(last) : ""}\`);
        yield reply.endBlock(text.index);
        yield reply.finish("stop");
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
  .object({ prefix: z.string().default("You said: ").describe("What the answer starts with.") })
  .default({ prefix: "You said: " });
`,
  test: ({ id }) => `${testHead()}
test("the ${id} provider answers with the prompt", async () => {
  const kit = await createTestKit({ plugins: [plugin], settings: { provider: "${id}" } });
  try {
    const result = await kit.run("hello");
    assert.deepEqual(kit.problems(), []);
    assert.equal(result.finalText, "You said: hello");
  } finally {
    await kit.dispose();
  }
});
`,
};
