/**
 * ops-memory loaded by the real host and selected with the `ops` setting, seeded from its settings section.
 */
import { resolve } from "node:path";
import { defineTool, definePlugin, z, textOf } from "@keel/extensions-api";
import { createTestKit } from "@keel/testing";
import { describe, expect, it } from "vitest";

const text = textOf;

const probe = {
  name: "probe",
  plugin: definePlugin({
    activate(api) {
      api.registerTool(
        defineTool({
          name: "cat",
          description: "reads a file through ctx.ops",
          parameters: z.object({ path: z.string() }),
          async execute(input, ctx) {
            return { content: new TextDecoder().decode(await ctx.ops.readFile(input.path)) };
          },
        }),
      );
      api.registerTool(
        defineTool({
          name: "run",
          description: "runs a command through ctx.ops",
          parameters: z.object({ command: z.string() }),
          async execute(input, ctx) {
            await ctx.ops.spawn(input.command).exited;
            return { content: "ran" };
          },
        }),
      );
    },
  }),
};

describe("ops-memory through the host", () => {
  it("serves files seeded from settings and refuses to run processes", async () => {
    const kit = await createTestKit({
      plugins: [resolve("plugins/ops-memory")],
      inline: [probe],
      settings: { ops: "memory", "ops-memory": { files: { "seeded.txt": "from settings\n" } } },
      script: [
        {
          toolCalls: [
            { name: "cat", arguments: { path: "seeded.txt" } },
            { name: "run", arguments: { command: "ls" } },
          ],
        },
        { text: "done" },
      ],
    });
    try {
      await kit.run("go");
      const [cat, run] = kit.toolResults();
      expect(text(cat!)).toBe("from settings\n");
      expect(run!.isError).toBe(true);
      expect(text(run!)).toContain('Cannot run "ls": the in-memory operations backend has no processes.');
    } finally {
      await kit.dispose();
    }
  });
});
