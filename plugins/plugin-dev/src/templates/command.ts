/**
 * The `command` kind: a slash command the user types in a session.
 */
import { testHead, type KindTemplate } from "./template.ts";

export const commandTemplate: KindTemplate = {
  summary: "a slash command",
  contributes: ({ id }) => ({ commands: [`/${id}`] }),
  entry: ({ id }) => `/**
 * ${id}: the \`/${id}\` command tells the user how many messages the session holds.
 */
import { definePlugin } from "@keel/extensions-api";
import { settings } from "./settings.ts";

export default definePlugin({
  settings,
  activate(api) {
    api.registerCommand({
      name: "/${id}",
      description: "Says how many messages the session holds.",
      run(_args, runtime) {
        runtime.notify(\`\${api.settings.label}: \${runtime.messages.length} messages\`);
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
  .object({ label: z.string().default("This session").describe("What the message starts with.") })
  .default({ label: "This session" });
`,
  test: ({ id }) => `${testHead()}
test("/${id} says how many messages the session holds", async () => {
  const kit = await createTestKit({ plugins: [plugin], script: [{ text: "hi" }] });
  try {
    await kit.run("hello");
    assert.equal(await kit.runtime.runCommand("/${id}"), true);
    assert.deepEqual(
      kit.eventsOf("notice").map((n) => n.message),
      ["This session: 2 messages"],
    );
  } finally {
    await kit.dispose();
  }
});
`,
};
