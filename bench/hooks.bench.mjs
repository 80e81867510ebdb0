// A command hook's round trip: a scripted model calling a no-op tool many times through the real kernel with
// the hooks-command plugin loaded, without hooks and with a PreToolUse hook running `true` (a shell started,
// the event JSON written to it, its exit read), in the same process, runs interleaved, medians reported.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestKit } from "@keel/testing";
import { definePlugin, defineTool, z } from "@keel/extensions-api";
import { median, printTable } from "./lib.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const CALLS = Number(process.env.HOOKS_BENCH_CALLS ?? 50);
const ROUNDS = 5;

const noop = definePlugin({
  activate: (api) =>
    api.registerTool(
      defineTool({
        name: "noop",
        description: "does nothing",
        readOnly: true,
        parameters: z.object({ n: z.number() }),
        execute: async () => ({ content: "ok" }),
      }),
    ),
});
const setups = [
  { name: "tool call, no hooks configured", settings: {} },
  {
    name: "tool call with a PreToolUse `true` hook",
    settings: { hooks: { PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] } },
  },
];

async function perCall(settings, calls) {
  const script = [
    ...Array.from({ length: calls }, (_, n) => ({ toolCalls: [{ name: "noop", arguments: { n } }] })),
    { text: "done" },
  ];
  const kit = await createTestKit({
    plugins: [resolve(root, "plugins/hooks-command")],
    inline: [{ name: "noop", plugin: noop }],
    script,
    settings,
  });
  try {
    const start = performance.now();
    const result = await kit.run("go");
    const elapsed = performance.now() - start;
    if (result.reason !== "stop") throw new Error(`run ended ${result.reason}: ${result.errorMessage}`);
    if (kit.problems().length > 0) throw new Error(kit.problems().join("\n"));
    return elapsed / calls;
  } finally {
    await kit.dispose();
  }
}

for (const setup of setups) await perCall(setup.settings, 10);
const times = setups.map(() => []);
for (let i = 0; i < ROUNDS; i++)
  for (const [k, setup] of setups.entries()) times[k].push(await perCall(setup.settings, CALLS));
const base = median(times[0]);
const rows = [["call", "per call", "vs no hooks"]];
for (const [k, setup] of setups.entries())
  rows.push([setup.name, `${median(times[k]).toFixed(2)} ms`, `${(median(times[k]) / base).toFixed(2)}×`]);
printTable(`command hook round trip (${CALLS} calls a run, median of ${ROUNDS})`, rows);
