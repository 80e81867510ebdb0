/**
 * The `compaction` kind: a strategy answering the `compact` hook when `compaction.strategy` names it.
 */
import { testHead, type KindTemplate } from "./template.ts";

export const compactionTemplate: KindTemplate = {
  summary: "a compaction strategy (the compact hook)",
  contributes: () => ({ hooks: ["compact"] }),
  reads: ["compaction"],
  entry: ({ id }) => `/**
 * ${id}: when \`compaction.strategy\` is "${id}", replaces everything before the last prompt with the list of
 * what the user asked, without a model call.
 */
import { definePlugin, textOf } from "@keel/extensions-api";
import { compactionChoice } from "@keel/extensions-api/compaction";
import { settings } from "./settings.ts";

export default definePlugin({
  settings,
  activate(api) {
    api.hooks.tap("compact", (request) => {
      if (compactionChoice(api.allSettings, request.model).strategy !== "${id}") return undefined;
      let lastPrompt = request.messages.length - 1;
      while (lastPrompt > 0 && request.messages[lastPrompt]!.role !== "user") lastPrompt--;
      if (lastPrompt <= 0) return undefined;
      const asked = request.messages
        .slice(0, lastPrompt)
        .filter((m) => m.role === "user")
        .map((m) => \`- \${textOf(m).slice(0, api.settings.maxChars)}\`);
      return { summary: \`The user asked:\\n\${asked.join("\\n")}\`, firstKeptIndex: lastPrompt };
    });
  },
});
`,
  settings: ({ id }) => `/**
 * The \`${id}\` section of settings.json.
 */
import { z } from "@keel/extensions-api";

export const settings = z
  .object({ maxChars: z.number().int().positive().default(200).describe("How much of each prompt the summary keeps.") })
  .default({ maxChars: 200 });
`,
  test: ({ id }) => `${testHead()}
test("${id} keeps the last prompt and lists the earlier ones", async () => {
  const kit = await createTestKit({
    plugins: [plugin],
    settings: { compaction: { strategy: "${id}" } },
    script: [{ text: "one" }, { text: "two" }],
  });
  try {
    await kit.run("first question");
    await kit.run("second question");
    assert.ok(await kit.runtime.compact());
    const text = JSON.stringify(kit.runtime.messages);
    assert.match(text, /The user asked:\\\\n- first question/);
    assert.match(text, /second question/);
    assert.deepEqual(kit.problems(), []);
  } finally {
    await kit.dispose();
  }
});
`,
};
