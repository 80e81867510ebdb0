/**
 * The `sandbox` kind: an operations backend that wraps another (`api.opsBackend`) and decides what may run.
 * Tools never see the difference: they use `ctx.ops`, and `"ops": "<name>"` selects this backend.
 */
import { testHead, type KindTemplate } from "./template.ts";

export const sandboxTemplate: KindTemplate = {
  summary: "a sandbox (an operations backend wrapping another)",
  contributes: ({ id }) => ({ ops: [id] }),
  entry: ({ id }) => `/**
 * ${id}: an operations backend over another one (\`${id}.inner\`, default \`local\`): files pass through, and
 * a command runs only when it starts with one of \`${id}.allow\`; any other is refused with the reason.
 */
import { definePlugin, type Operations } from "@keel/extensions-api";
import { settings } from "./settings.ts";

export default definePlugin({
  settings,
  activate(api) {
    api.registerOps({
      name: "${id}",
      description: "Runs only the commands the settings allow, on another backend.",
      async create(options) {
        const backend = await api.opsBackend(api.settings.inner);
        if (!backend) throw new Error(\`${id}: no "\${api.settings.inner}" backend is installed; set ${id}.inner.\`);
        const inner = await backend.create(options);
        const wrapped: Operations = Object.create(inner);
        wrapped.spawn = (command, spawnOptions) => {
          if (!api.settings.allow.some((prefix) => command === prefix || command.startsWith(\`\${prefix} \`)))
            throw new Error(\`${id} refuses "\${command}": only \${api.settings.allow.join(", ")} may run.\`);
          return inner.spawn(command, spawnOptions);
        };
        return wrapped;
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
  .object({
    inner: z.string().default("local").describe("The backend that does the work."),
    allow: z.array(z.string()).default(["ls", "cat", "git status"]).describe("Commands that may run (by prefix)."),
  })
  .default({ inner: "local", allow: ["ls", "cat", "git status"] });
`,
  test: ({ id }) => `${testHead(`\nimport { definePlugin, z } from "@keel/extensions-api";`)}
/**
 * A stand-in inner backend that records the commands it ran, and a tool that runs one through ctx.ops.
 * @param {string[]} ran
 */
function fakes(ran) {
  return {
    name: "fakes",
    plugin: definePlugin({
      activate(api) {
        api.registerOps({
          name: "fake",
          // Only spawn is called; a real backend has every Operations method.
          create: () => /** @type {any} */ ({
            spawn(/** @type {string} */ command) {
              ran.push(command);
              return { pid: 1, exited: Promise.resolve({ code: 0, signal: null }), write() {}, kill: async () => {} };
            },
          }),
        });
        api.registerTool({
          name: "run",
          description: "Runs a command.",
          parameters: z.object({ command: z.string() }),
          async execute({ command }, ctx) {
            await ctx.ops.spawn(command).exited;
            return { content: [{ type: "text", text: "ran" }] };
          },
        });
      },
    }),
  };
}

test("${id} runs the allowed commands on the inner backend and refuses the others", async () => {
  /** @type {string[]} */
  const ran = [];
  const kit = await createTestKit({
    plugins: [plugin],
    inline: [fakes(ran)],
    settings: { ops: "${id}", "${id}": { inner: "fake", allow: ["ls"] } },
    script: [
      { toolCalls: [{ name: "run", arguments: { command: "ls -la" } }] },
      { toolCalls: [{ name: "run", arguments: { command: "rm -rf /" } }] },
      { text: "done" },
    ],
  });
  try {
    await kit.run("look around");
    assert.deepEqual(ran, ["ls -la"]);
    const refused = kit.toolResults()[1];
    assert.equal(refused?.isError, true);
    assert.match(JSON.stringify(refused?.content), /${id} refuses/);
  } finally {
    await kit.dispose();
  }
});
`,
};
