/**
 * Sessions record the operations backend when it points elsewhere (`Operations.where`), and a resumed session
 * creates that backend again, handed what it recorded (`resume`), over the `ops` setting; a choice made for the
 * run (here a flag that picks a backend) still wins, and a backend on this machine's workspace records nothing.
 */
import { resolve } from "node:path";
import { defineTool, definePlugin, textOf, z, type Operations, type PluginEntry } from "@keel/extensions-api";
import { createTestKit, type InlinePlugin, type TestKit } from "@keel/testing";
import { describe, expect, it } from "vitest";

const memory = resolve("plugins/ops-memory");

/** A backend somewhere else (`far:<spot>`), noting what each create was handed; and a tool saying where it runs. */
function far(created: unknown[]): InlinePlugin {
  return {
    name: "far",
    plugin: definePlugin({
      activate(api) {
        api.registerFlag({ name: "near", description: "use the memory backend", type: "boolean", ops: "memory" });
        api.registerOps({
          name: "far",
          async create(options) {
            created.push(options.resume);
            const spot = (options.resume as { spot?: string } | undefined)?.spot ?? "A";
            const inner = await (await api.opsBackend("memory"))!.create({ cwd: options.cwd });
            return Object.assign(Object.create(inner) as Operations, { where: `far:${spot}`, resumeWith: { spot } });
          },
        });
        api.registerTool(
          defineTool({
            name: "where",
            description: "says where the backend points",
            parameters: z.object({}),
            async execute(_input, ctx) {
              return { content: ctx.ops.where ?? "this machine" };
            },
          }),
        );
      },
    }),
  };
}

const recorded = (kit: TestKit) =>
  kit.runtime.pluginEntries.filter((e) => e.plugin === "keel" && e.kind === "ops").map((e) => e.data);

async function whereItRuns(
  options: { settings: Record<string, unknown>; flags?: Record<string, unknown> },
  resumed?: unknown,
) {
  const created: unknown[] = [];
  const kit = await createTestKit({
    plugins: [memory],
    inline: [far(created)],
    ...options,
    script: [{ toolCalls: [{ name: "where", arguments: {} }] }, { text: "done" }],
  });
  try {
    if (resumed) {
      const entry: PluginEntry = { plugin: "keel", kind: "ops", data: resumed, timestamp: Date.now() };
      kit.runtime.replaceMessages([], { reason: "resume", entries: [entry] });
    }
    await kit.run("where?");
    return { where: textOf(kit.toolResults()[0]!), created, recorded: recorded(kit) };
  } finally {
    await kit.dispose();
  }
}

describe("the session's record of its backend", () => {
  it("records a backend that points elsewhere, with where and what brings it back", async () => {
    const run = await whereItRuns({ settings: { ops: "far" } });
    expect(run.where).toBe("far:A");
    expect(run.recorded).toEqual([{ backend: "far", where: "far:A", resume: { spot: "A" } }]);
  });

  it("records nothing for a backend on this machine's workspace", async () => {
    const run = await whereItRuns({ settings: { ops: "memory" } });
    expect(run.where).toBe("this machine");
    expect(run.recorded).toEqual([]);
  });

  it("goes back to the recorded backend and place on resume, over the ops setting", async () => {
    const run = await whereItRuns(
      { settings: { ops: "memory" } },
      { backend: "far", where: "far:B", resume: { spot: "B" } },
    );
    expect(run.where).toBe("far:B");
    expect(run.created).toEqual([{ spot: "B" }]);
    expect(run.recorded).toHaveLength(1);
  });

  it("says which session's backend is missing when the recorded one is not installed", async () => {
    const run = await whereItRuns({ settings: { ops: "memory" } }, { backend: "gone", where: "gone:Z" });
    expect(run.where).toContain(
      'The operations backend "gone" (which this session worked on, at gone:Z; start a new session to use ' +
        "another) is not installed",
    );
  });

  it("lets a choice made for the run win over the record", async () => {
    const run = await whereItRuns(
      { settings: { ops: "far" }, flags: { near: true } },
      { backend: "far", where: "far:B", resume: { spot: "B" } },
    );
    expect(run.where).toBe("this machine");
    expect(run.created).toEqual([]);
  });
});
