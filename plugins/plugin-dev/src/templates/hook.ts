/**
 * The `hook` kind: a guard on the `tool_call` hook, the decision point before any tool runs.
 */
import { testHead, type KindTemplate } from "./template.ts";

export const hookTemplate: KindTemplate = {
  summary: "a hook (a tool_call guard)",
  contributes: () => ({ hooks: ["tool_call"] }),
  entry: ({ id }) => `/**
 * ${id}: a \`tool_call\` guard that refuses the tools the settings list, telling the model why.
 */
import { definePlugin, STAGE_POLICY } from "@keel/extensions-api";
import { settings } from "./settings.ts";

export default definePlugin({
  settings,
  activate(api) {
    api.hooks.tap("tool_call", { stage: STAGE_POLICY }, (call) => {
      if (!api.settings.refuse.includes(call.toolName)) return undefined;
      return { block: true, reason: \`${id} refuses \${call.toolName}: it is listed in ${id}.refuse.\` };
    });
  },
});
`,
  settings: ({ id }) => `/**
 * The \`${id}\` section of settings.json.
 */
import { z } from "@keel/extensions-api";

export const settings = z
  .object({ refuse: z.array(z.string()).default(["bash"]).describe("Tools this plugin refuses to let run.") })
  .default({ refuse: ["bash"] });
`,
  test: ({ id, name }) => `${testHead(`\nimport { definePlugin, z } from "@keel/extensions-api";`)}
/**
 * A stand-in \`bash\` tool that records what it was asked to run.
 * @param {string[]} ran
 */
function fakeBash(ran) {
  return {
    name: "fake-bash",
    plugin: definePlugin({
      activate(api) {
        api.registerTool({
          name: "bash",
          description: "Runs a command.",
          parameters: z.object({ command: z.string() }),
          async execute({ command }) {
            ran.push(command);
            return { content: [{ type: "text", text: "ran" }] };
          },
        });
      },
    }),
  };
}

test("${id} refuses the tools its settings list", async () => {
  /** @type {string[]} */
  const ran = [];
  const kit = await createTestKit({
    plugins: [plugin],
    inline: [fakeBash(ran)],
    script: [{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf build" } }] }, { text: "ok" }],
  });
  try {
    await kit.run("clean up");
    assert.deepEqual(ran, []);
    assert.equal(kit.eventsOf("guard_blocked")[0]?.by, "${name}");
    assert.equal(kit.toolResults()[0]?.isError, true);
  } finally {
    await kit.dispose();
  }
});
`,
};
