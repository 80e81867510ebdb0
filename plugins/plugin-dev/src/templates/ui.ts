/**
 * The `ui` kind: a mode, the UI of a session (`keel --mode <name>`). The template prints the answer as a
 * Markdown report; a full UI reads the runtime's events and answers `ui_request` the same way.
 */
import { testHead, type KindTemplate } from "./template.ts";

export const uiTemplate: KindTemplate = {
  summary: "a UI (a mode: keel --mode <name>)",
  contributes: ({ id }) => ({ modes: [id] }),
  entry: ({ id }) => `/**
 * ${id}: \`keel --mode ${id} -p "..."\` runs the prompt and prints the answer under a heading, with the tools used.
 */
import { definePlugin } from "@keel/extensions-api";
import { settings } from "./settings.ts";

export default definePlugin({
  settings,
  activate(api) {
    api.registerMode({
      name: "${id}",
      description: "Prints the answer as a Markdown report.",
      async run(runtime, { prompt }) {
        if (!prompt) {
          process.stderr.write('${id}: give a prompt: --mode ${id} -p "..."\\n');
          return 2;
        }
        const tools = new Set<string>();
        const off = runtime.events.on("tool_execution_start", (e) => void tools.add(e.toolName));
        const result = await runtime.prompt(prompt);
        off();
        const used = tools.size > 0 ? \`\\n\\nTools used: \${[...tools].join(", ")}\` : "";
        process.stdout.write(\`# \${api.settings.title}\\n\\n\${result.finalText}\${used}\\n\`);
        return result.reason === "stop" ? 0 : 1;
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
  .object({ title: z.string().default("Answer").describe("The report's heading.") })
  .default({ title: "Answer" });
`,
  test: ({ id }) => `${testHead()}
test("the ${id} mode prints the answer as a report", async () => {
  const kit = await createTestKit({ plugins: [plugin], script: [{ text: "All good." }] });
  let printed = "";
  const write = process.stdout.write;
  try {
    process.stdout.write = (/** @type {any} */ chunk) => ((printed += String(chunk)), true);
    const code = await kit.runMode("${id}", { prompt: "check" });
    process.stdout.write = write;
    assert.equal(code, 0);
    assert.equal(printed, "# Answer\\n\\nAll good.\\n");
  } finally {
    process.stdout.write = write;
    await kit.dispose();
  }
});
`,
};
