/**
 * The operations backends' host suite (ops-local, ops-memory): a backend plugin loaded by the real host as the
 * active backend, driven by a scripted model through two small tools that use whatever `ctx.ops` is, so each
 * backend's test says only what differs — how its files are seeded and what it refuses.
 */
import { defineTool, definePlugin, textOf, z, type ToolResultMessage } from "@keel/extensions-api";
import { createTestKit, type TestKitOptions } from "@keel/testing";

/** `cat` reads a file and reports whether the backend is local; `run` runs a command. */
const probe = {
  name: "probe",
  plugin: definePlugin({
    activate(api) {
      api.registerTool(
        defineTool({
          name: "cat",
          description: "reads a file through ctx.ops",
          parameters: z.object({ path: z.string() }),
          readOnly: true,
          async execute(input, ctx) {
            return {
              content: new TextDecoder().decode(await ctx.ops.readFile(input.path)),
              details: { local: ctx.ops.local },
            };
          },
        }),
      );
      api.registerTool(
        defineTool({
          name: "run",
          description: "runs a command through ctx.ops",
          parameters: z.object({ command: z.string() }),
          async execute(input, ctx) {
            const exit = await ctx.ops.spawn(input.command).exited;
            return { content: `exit ${exit.code}` };
          },
        }),
      );
    },
  }),
};

export type ProbeCall = { name: "cat"; arguments: { path: string } } | { name: "run"; arguments: { command: string } };

/** What one run of the probe calls gave: each result's text and error flag, and the run's problems. */
export interface ProbeRun {
  results: { text: string; isError: boolean; details: unknown }[];
  problems: string;
}

/** Runs `calls` in one turn through the backend the options select, then disposes the kit. */
export async function probeBackend(
  options: Pick<TestKitOptions, "plugins" | "settings" | "files">,
  calls: ProbeCall[],
): Promise<ProbeRun> {
  const kit = await createTestKit({ ...options, inline: [probe], script: [{ toolCalls: calls }, { text: "done" }] });
  try {
    await kit.run("go");
    const results = kit.toolResults().map((m: ToolResultMessage) => ({
      text: textOf(m),
      isError: m.isError,
      details: m.details,
    }));
    return { results, problems: kit.problems().join("\n") };
  } finally {
    await kit.dispose();
  }
}
