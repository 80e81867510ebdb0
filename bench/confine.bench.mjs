// Confined plugins (issue 25), each as a ratio to the same plugin in keel's process, measured in the same run:
// a tool call's and a hook call's round trip across the boundary (the test kit, a scripted model, 50 calls a
// run), `keel -p` with 10 plugins installed (lazy: their hosts start only when used), and the memory of one
// confined plugin's host process (RSS and PSS from /proc/<pid>/smaps_rollup).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestKit } from "@keel/testing";
import { definePlugin, defineTool, z } from "@keel/extensions-api";
import { interleaved, median, printTable, ratio, timeProcess } from "./lib.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const CALLS = Number(process.env.CONFINE_BENCH_CALLS ?? 50);
const ROUNDS = 5;
const work = mkdtempSync(join(tmpdir(), "keel-confine-bench-"));

function writePlugin(name, keel, source) {
  const dir = join(work, "plugins", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name,
      version: "1.0.0",
      type: "module",
      keel: { apiVersion: "^1.0.0", entry: "./index.ts", ...keel },
    }),
  );
  writeFileSync(join(dir, "index.ts"), source);
  return dir;
}

const toolPlugin = writePlugin(
  "bench-tool",
  { contributes: { tools: ["noop"] } },
  `import { definePlugin, defineTool, z } from "@keel/extensions-api";
export default definePlugin({ activate: (api) => api.registerTool(defineTool({ name: "noop", description: "no-op",
  readOnly: true, parameters: z.object({ n: z.number() }), execute: async () => ({ content: "ok" }) })) });`,
);
const hookPlugin = writePlugin(
  "bench-hook",
  { contributes: { hooks: ["tool_call"] } },
  `import { definePlugin } from "@keel/extensions-api";
export default definePlugin({ activate: (api) => api.hooks.tap("tool_call", () => undefined) });`,
);
const inlineNoop = definePlugin({
  activate: (api) =>
    api.registerTool(
      defineTool({
        name: "noop",
        description: "no-op",
        readOnly: true,
        parameters: z.object({ n: z.number() }),
        execute: async () => ({ content: "ok" }),
      }),
    ),
});

async function perCall(plugin, confine, withInlineTool) {
  const script = [
    ...Array.from({ length: CALLS }, (_, n) => ({ toolCalls: [{ name: "noop", arguments: { n } }] })),
    { text: "done" },
  ];
  const kit = await createTestKit({
    plugins: [plugin],
    inline: withInlineTool ? [{ name: "inline-noop", plugin: inlineNoop }] : [],
    script,
    settings: { plugins: { confine } },
  });
  try {
    const start = performance.now();
    const result = await kit.run("go");
    const elapsed = performance.now() - start;
    if (result.reason !== "stop") throw new Error(`run ended ${result.reason}: ${result.errorMessage}`);
    if (kit.problems().length > 0) throw new Error(kit.problems().join("\n"));
    return elapsed / CALLS;
  } finally {
    await kit.dispose();
  }
}

/** @type {[string, () => Promise<number>][]} */
const calls = [
  ["tool call, in keel's process", () => perCall(toolPlugin, "none", false)],
  ["tool call, confined", () => perCall(toolPlugin, "third-party", false)],
  ["tool_call hook, in keel's process", () => perCall(hookPlugin, "none", true)],
  ["tool_call hook, confined", () => perCall(hookPlugin, "third-party", true)],
];
const callTimes = (await interleaved(calls, 1, ROUNDS)).map(median);
const rows = [["call", "per call", "added", "ratio"]];
for (const [k, [name]] of calls.entries()) {
  const base = callTimes[k - (k % 2)];
  rows.push([
    name,
    `${callTimes[k].toFixed(3)} ms`,
    `${(callTimes[k] - base).toFixed(3)} ms`,
    ratio(callTimes[k], base),
  ]);
}
printTable(`a call across the boundary (${CALLS} calls a run, median of ${ROUNDS})`, rows);

// keel -p with 10 plugins (--plugin), each a tool declared in full, so activated only when called.
const home = join(work, "home");
const cwd = join(work, "cwd");
mkdirSync(home, { recursive: true });
mkdirSync(cwd, { recursive: true });
writeFileSync(join(cwd, "turns.json"), JSON.stringify([{ text: "hi" }]));
for (let i = 0; i < 10; i++) {
  const parameters = { type: "object", properties: {} };
  const dir = writePlugin(
    `bench-lazy-${i}`,
    { contributes: { tools: [{ name: `lazy_${i}`, description: "no-op", parameters }] } },
    `import { definePlugin, defineTool, z } from "@keel/extensions-api";
export default definePlugin({ activate: (api) => api.registerTool(defineTool({ name: "lazy_${i}",
  description: "no-op", parameters: z.object({}), execute: async () => ({ content: "ok" }) })) });`,
  );
  void dir;
}
const keelArgs = (confine) => [
  join(root, "bin/keel.cjs"),
  "-p",
  "hi",
  ...["--provider", "scripted", "--settings", JSON.stringify({ "provider-scripted": { script: "turns.json" } })],
  ...["--settings", JSON.stringify({ plugins: { confine } })],
  ...readdirSync(join(work, "plugins"))
    .filter((n) => n.startsWith("bench-lazy-"))
    .flatMap((n) => ["--plugin", join(work, "plugins", n)]),
];
/** @type {[string, () => Promise<number>][]} */
const runs = [
  [
    "keel -p, 10 plugins in keel's process",
    () => timeProcess(process.execPath, keelArgs("none"), { cwd, env: { ...process.env, KEEL_HOME: home } }),
  ],
  [
    "keel -p, 10 plugins confined",
    () => timeProcess(process.execPath, keelArgs("third-party"), { cwd, env: { ...process.env, KEEL_HOME: home } }),
  ],
];
const runTimes = (await interleaved(runs, 2, 10)).map(median);
printTable("keel -p with 10 lazy plugins (median of 10)", [
  ["run", "wall", "ratio"],
  ...runs.map(([name], k) => [name, `${runTimes[k].toFixed(1)} ms`, ratio(runTimes[k], runTimes[0])]),
]);

// Memory of one confined plugin's host process, read while it is alive.
function hostProcesses() {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const argv = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0");
        return !argv[0].endsWith("bwrap") && argv.some((a) => a.endsWith("plugin-host.cjs"));
      } catch {
        return false;
      }
    });
}
function rollup(pid) {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0);
  return { rss: kb("Rss") / 1024, pss: kb("Pss") / 1024 };
}
const kit = await createTestKit({
  plugins: [toolPlugin],
  script: [{ toolCalls: [{ name: "noop", arguments: { n: 1 } }] }, { text: "done" }],
  settings: { plugins: { confine: "third-party" } },
});
await kit.run("go");
const [pid] = hostProcesses();
const memory = pid ? rollup(pid) : { rss: NaN, pss: NaN };
await kit.dispose();
printTable("one confined plugin's host process, after a tool call", [
  ["RSS", "PSS"],
  [`${memory.rss.toFixed(1)} MB`, `${memory.pss.toFixed(1)} MB`],
]);
