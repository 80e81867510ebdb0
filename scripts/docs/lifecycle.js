// The lifecycle sequence of docs/hooks-and-events.md, recorded from a real run in the test kit: a probe plugin
// taps every hook (answering nothing, changing nothing) and listens to every event, into one ordered list. The
// run calls a tool, overflows the context (so the loop compacts and retries), answers, and the session ends.
import { definePlugin, defineTool, HOOKS, STAGE_SECURITY, z } from "@keel/extensions-api";
import { createTestKit } from "@keel/testing";

/**
 * One step of the recorded run: a hook (awaited decision point), an event (fact for observers), or a mark
 * (what the driver did next).
 * @typedef {{ kind: "hook" | "event" | "mark"; name: string }} Step
 */

/** @param {Step[]} steps */
function probe(steps) {
  return definePlugin({
    activate(api) {
      for (const hook of /** @type {(keyof typeof HOOKS)[]} */ (Object.keys(HOOKS))) {
        const record = () => steps.push({ kind: "hook", name: hook });
        // One handler for hooks of every kind: a transform hands its value on, the others answer nothing. The
        // registrar is typed per hook, so the loop over all of them goes through `any`.
        const handler =
          HOOKS[hook].kind === "transform" ? (/** @type {unknown} */ value) => (record(), value) : () => void record();
        /** @type {any} */ (api.hooks).tap(hook, { stage: STAGE_SECURITY, name: `probe-${hook}` }, handler);
      }
      api.events.onAny((name) => void steps.push({ kind: "event", name }));
      // The strategy keeps the tool call and its result; the summary replaces the prompt before them.
      api.hooks.tap("compact", () => ({ summary: "The user asked what the notes say.", firstKeptIndex: 1 }));
      api.registerTool(
        defineTool({
          name: "read_notes",
          description: "Reads the notes.",
          readOnly: true,
          parameters: z.object({}),
          execute: async () => ({ content: "buy milk" }),
        }),
      );
    },
  });
}

/** The model's turns: a tool call, a request that does not fit the context window, the answer. */
/** @type {import("@keel/extensions-api/scripted").ScriptTurn[]} */
const SCRIPT = [
  { toolCalls: [{ name: "read_notes", arguments: {} }] },
  { error: "prompt is too long: 210000 tokens > 200000", errorKind: "context_overflow" },
  { text: "Your note says: buy milk." },
];

/**
 * Records the run; returns the steps in order, consecutive repeats folded into one with a count.
 * @returns {Promise<(Step & { count: number })[]>}
 */
export async function recordLifecycle() {
  /** @type {Step[]} */
  const steps = [];
  const kit = await createTestKit({ inline: [{ name: "lifecycle-probe", plugin: probe(steps) }], script: SCRIPT });
  steps.push({ kind: "mark", name: "prompt" });
  await kit.run("What do my notes say?");
  steps.push({ kind: "mark", name: "dispose" });
  await kit.dispose();
  /** @type {(Step & { count: number })[]} */
  const folded = [];
  for (const step of steps) {
    const last = folded.at(-1);
    if (last && last.kind === step.kind && last.name === step.name) last.count += 1;
    else folded.push({ ...step, count: 1 });
  }
  return folded;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await recordLifecycle());
