// The permission policy's cost per tool call: a scripted model making many calls through the real kernel, with
// the permissions plugin loaded (default mode, auto) and without it, in the same process, runs interleaved and
// medians reported. Three kinds of call: a no-op tool (the policy's fixed cost), a no-op tool named `bash` given a
// command line with four commands (parsing and classifying, with no process started), and the real bash tool on
// the local backend running `true` (what a user pays per command).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestKit } from "@keel/testing";
import { definePlugin, defineTool, z } from "@keel/extensions-api";
import { median, printTable } from "./lib.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const plugin = (name) => resolve(root, "plugins", name);
const CALLS = Number(process.env.PERMISSIONS_BENCH_CALLS ?? 200);
const ROUNDS = 7;
const LINE = "git status && npm test -- --run | tail -5; ls -la src";

const noop = (name, readOnly) =>
  definePlugin({
    activate: (api) =>
      api.registerTool(
        defineTool({
          name,
          description: "does nothing",
          readOnly,
          parameters: z.object({ n: z.number().optional(), command: z.string().optional() }),
          execute: async () => ({ content: "ok" }),
        }),
      ),
  });

const kinds = [
  {
    name: "no-op read-only tool",
    inline: () => [{ name: "noop", plugin: noop("noop", true) }],
    call: (i) => ({ name: "noop", arguments: { n: i } }),
    plugins: [],
    calls: CALLS,
  },
  {
    name: `no-op "bash" tool, a line of 4 commands`,
    inline: () => [{ name: "fake-bash", plugin: noop("bash", false) }],
    call: () => ({ name: "bash", arguments: { command: LINE } }),
    plugins: [],
    calls: CALLS,
  },
  {
    name: "real bash tool running `true`",
    inline: () => [],
    call: () => ({ name: "bash", arguments: { command: "true" } }),
    plugins: [plugin("ops-local"), plugin("tool-bash")],
    calls: Math.ceil(CALLS / 4),
  },
];

async function perCall(kind, withPolicy) {
  const script = [...Array.from({ length: kind.calls }, (_, i) => ({ toolCalls: [kind.call(i)] })), { text: "done" }];
  const kit = await createTestKit({
    plugins: [...kind.plugins, ...(withPolicy ? [plugin("permissions")] : [])],
    inline: kind.inline(),
    script,
  });
  try {
    const start = performance.now();
    const result = await kit.run("go");
    const elapsed = performance.now() - start;
    if (result.reason !== "stop") throw new Error(`run ended ${result.reason}: ${result.errorMessage}`);
    const denied = kit.eventsOf("permission_decision").filter((d) => d.decision !== "allow");
    if (denied.length > 0) throw new Error(`the policy did not allow ${denied[0].toolName}: ${denied[0].reason}`);
    if (withPolicy && kit.eventsOf("permission_decision").length !== kind.calls)
      throw new Error("the policy did not see every call");
    return elapsed / kind.calls;
  } finally {
    await kit.dispose();
  }
}

// Warm every path (jiti's cache, the grammar, the JIT) before anything is timed; then rounds interleave the
// kinds and the two setups, so a slow moment of a shared machine falls on both.
for (const kind of kinds) for (const withPolicy of [false, true]) await perCall({ ...kind, calls: 20 }, withPolicy);
const times = kinds.map(() => ({ without: [], withIt: [] }));
for (let i = 0; i < ROUNDS; i++) {
  for (const [k, kind] of kinds.entries()) {
    times[k].without.push(await perCall(kind, false));
    times[k].withIt.push(await perCall(kind, true));
  }
}
const us = (v) => `${(v * 1000).toFixed(0)} µs`;
const rows = [["call", "without the plugin", "with it (auto)", "added per call", "ratio"]];
for (const [k, kind] of kinds.entries()) {
  const a = median(times[k].without);
  const b = median(times[k].withIt);
  rows.push([kind.name, us(a), us(b), us(b - a), `${(b / a).toFixed(2)}×`]);
}
printTable(`permission policy cost per tool call (${CALLS} calls a run, median of ${ROUNDS})`, rows);
