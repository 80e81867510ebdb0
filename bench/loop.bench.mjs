// Per-turn overhead of the kernel: a scripted model calling a no-op tool for many turns, through the real
// loop (hooks, events, validation, history) against the seeds' bare loop doing the same calls with none of
// that, measured in the same process. Also the heap a long run leaves.
import { createTestKit } from "@keel/testing";
import { definePlugin, defineTool, z } from "@keel/extensions-api";
import { playTurn } from "@keel/extensions-api/scripted";
import { median, printTable } from "./lib.mjs";

const TURNS = Number(process.env.BENCH_TURNS ?? 300);
const ROUNDS = 5;
const turn = (i) => ({ text: `step ${i}`, toolCalls: [{ name: "noop", arguments: { n: i } }], chunkSize: 64 });
const script = () => [...Array.from({ length: TURNS }, (_, i) => turn(i)), { text: "done" }];
const noop = defineTool({
  name: "noop",
  description: "does nothing",
  readOnly: true,
  parameters: z.object({ n: z.number() }),
  execute: async ({ n }) => ({ content: `ok ${n}` }),
});

/** The seeds' loop: stream a reply, run its calls, append results, repeat. */
async function bareLoop() {
  const turns = script();
  /** @type {import("@keel/extensions-api").Message[]} */
  const history = [{ role: "user", content: "go", timestamp: 0 }];
  const signal = new AbortController().signal;
  for (;;) {
    let final;
    for await (const event of playTurn(turns.shift(), signal, { provider: "scripted", model: "script" }))
      if (event.type === "done") final = event.message;
    history.push(final);
    const calls = final.content.filter((b) => b.type === "toolCall");
    if (calls.length === 0) return history;
    for (const call of calls) {
      const input = noop.parameters.parse(JSON.parse(call.arguments));
      const result = await noop.execute(input, /** @type {any} the no-op tool reads no context */ ({}));
      const text = /** @type {string} */ (result.content);
      history.push({
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text }],
        isError: false,
        timestamp: 0,
      });
    }
  }
}

async function keelLoop() {
  const kit = await createTestKit({
    inline: [{ name: "noop", plugin: definePlugin({ activate: (api) => api.registerTool(noop) }) }],
    script: script(),
  });
  const start = performance.now();
  const result = await kit.run("go");
  const elapsed = performance.now() - start;
  if (result.reason !== "stop") throw new Error(`run ended ${result.reason}: ${result.errorMessage}`);
  await kit.dispose();
  return elapsed;
}

const bare = [];
const keel = [];
for (let i = 0; i < ROUNDS; i++) {
  let start = performance.now();
  await bareLoop();
  bare.push(performance.now() - start);
  keel.push(await keelLoop());
}
const perBare = median(bare) / TURNS;
const perKeel = median(keel) / TURNS;
// Heap after a long run, measured on a runtime without the test kit's event log.
const { KeelRuntime } = await import("@keel/core");
const { mkdtempSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const root = mkdtempSync(join(tmpdir(), "keel-bench-loop-"));
const turns = script();
const scripted = definePlugin({
  activate: (api) =>
    api.registerProvider({
      id: "scripted",
      models: () => [{ id: "script", provider: "scripted", contextWindow: 1_000_000, maxOutput: 1_000 }],
      stream: (_request, options) => playTurn(turns.shift(), options.signal, { provider: "scripted", model: "script" }),
    }),
});
let runtime = await KeelRuntime.create({
  cwd: root,
  keelHome: root,
  inline: [
    { name: "scripted", version: "1.0.0", definition: scripted },
    { name: "noop", version: "1.0.0", definition: definePlugin({ activate: (api) => api.registerTool(noop) }) },
  ],
  extraSettings: [{ provider: "scripted" }],
});
await runtime.prompt("go");
global.gc?.();
const heapWith = process.memoryUsage().heapUsed;
const messages = runtime.messages.length;
const payload = JSON.stringify(runtime.messages).length;
await runtime.shutdown();
runtime = undefined;
// Let pending callbacks drop their references before collecting.
await new Promise((resolve) => setTimeout(resolve, 50));
global.gc?.();
const heapWithout = process.memoryUsage().heapUsed;

const us = (v) => `${(v * 1000).toFixed(0)} µs`;
printTable(`agent loop, ${TURNS} turns of one tool call each (median of ${ROUNDS})`, [
  ["measure", "per turn", "vs bare loop"],
  ["bare loop (seeds' pseudo-code)", us(perBare), "1.00×"],
  ["keel kernel (hooks, events, validation, history)", us(perKeel), `${(perKeel / perBare).toFixed(2)}×`],
  ["keel overhead per turn", us(perKeel - perBare), ""],
]);
console.log(
  `\nHeap held by a session of ${messages} messages (${(payload / 1024).toFixed(0)} KB as JSON): ` +
    `${((heapWith - heapWithout) / 1024).toFixed(0)} KB` +
    `${global.gc ? "" : " (run with --expose-gc for a settled figure)"}; peak RSS of this whole ` +
    `benchmark process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB.`,
);
