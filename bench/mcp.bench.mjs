// MCP: (1) bytes of the first request's tool definitions with 50 MCP tools sent one by one vs behind
// `mcp_search`, and without MCP; (2) what one MCP tool call costs over a direct keel tool doing the same work
// (a scripted model making many calls in one process, rounds interleaved); (3) a `keel -p` run with three
// configured MCP servers it never uses vs none, through the real binary (goal: no added time: their tool
// lists come from the cache and no server starts), and the plugin itself vs disabled: what it adds to a start.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestKit } from "@keel/testing";
import { definePlugin, defineTool, z } from "@keel/extensions-api";
import { playTurn } from "@keel/extensions-api/scripted";
import { median, ms, printTable, ratio } from "./lib.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "keel.cjs");
const mcpPlugin = resolve(root, "plugins", "mcp");
const many = join(root, "plugins", "mcp", "test", "fixtures", "many-tools-server.mjs");
const require = createRequire(import.meta.url);
const reference = (name) =>
  join(dirname(require.resolve(`@modelcontextprotocol/server-${name}/package.json`)), "dist", "index.js");
const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 100);
const ROUNDS = 5;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

/** The tools of the first request, as JSON bytes, with `settings` (a provider that records the request). */
async function firstRequestToolBytes(settings) {
  const requests = [];
  const capture = definePlugin({
    activate(api) {
      api.registerProvider({
        id: "capture",
        models: () => [{ id: "m", provider: "capture", contextWindow: 200_000, maxOutput: 1_000 }],
        async *stream(request, options) {
          requests.push(request);
          yield* playTurn({ text: "ok" }, options.signal, { provider: "capture", model: "m" });
        },
      });
    },
  });
  const kit = await createTestKit({
    plugins: [mcpPlugin],
    inline: [{ name: "capture", plugin: capture, manifest: { activation: ["onStartup"] } }],
    settings: { provider: "capture", model: "m", ...settings },
  });
  await kit.run("hi");
  await kit.dispose();
  const tools = requests[0].tools;
  return { bytes: Buffer.byteLength(JSON.stringify(tools)), count: tools.length };
}

const manyServer = { mcpServers: { tracker: { command: process.execPath, args: [many] } } };
const none = await firstRequestToolBytes({});
const noSearch = { mcp: { searchAboveTools: 1000, searchAboveBytes: 1e9 } };
const direct = await firstRequestToolBytes({ ...manyServer, ...noSearch });
const search = await firstRequestToolBytes(manyServer);
printTable("first request: tool definitions with 50 MCP tools", [
  ["tools sent", "count", "bytes", "vs sent one by one"],
  ["no MCP server (and no other tool plugin)", none.count, none.bytes, ""],
  ["50 MCP tools one by one", direct.count, direct.bytes, "1.00×"],
  ["behind mcp_search", search.count, search.bytes, ratio(search.bytes, direct.bytes)],
]);

/** Milliseconds per call of `call` over CALLS calls in one run. */
async function perCall(options, call) {
  const script = [...Array.from({ length: CALLS }, () => ({ toolCalls: [call] })), { text: "done" }];
  const kit = await createTestKit({ ...options, script });
  const start = performance.now();
  await kit.run("go");
  const elapsed = performance.now() - start;
  const failed = kit.toolResults().filter((r) => r.isError);
  if (failed.length > 0) throw new Error(`a call failed: ${JSON.stringify(failed[0].content)}`);
  await kit.dispose();
  return elapsed / CALLS;
}
const echo = definePlugin({
  activate: (api) =>
    api.registerTool(
      defineTool({
        name: "echo",
        description: "answers its text back",
        parameters: z.object({ text: z.string() }),
        execute: async ({ text }) => ({ content: text }),
      }),
    ),
});
const samples = { direct: [], mcp: [] };
for (let i = 0; i < ROUNDS; i++) {
  samples.direct.push(
    await perCall({ inline: [{ name: "echo", plugin: echo }] }, { name: "echo", arguments: { text: "x" } }),
  );
  samples.mcp.push(
    await perCall(
      { plugins: [mcpPlugin], settings: { ...manyServer, ...noSearch } },
      { name: "mcp__tracker__create_issue_0", arguments: { text: "x" } },
    ),
  );
}
const d = median(samples.direct);
const m = median(samples.mcp);
printTable(`one tool call (median of ${ROUNDS} runs of ${CALLS} calls; the MCP run includes its server's start)`, [
  ["tool", "per call", "vs direct"],
  ["direct keel tool", ms(d), "1.00×"],
  ["MCP tool (stdio)", ms(m), `${ratio(m, d)} (+${(m - d).toFixed(2)} ms)`],
]);

/**
 * Another keel's bin/keel.cjs or bin/keel.js (MCP_BENCH_BASE_BIN, e.g. a checkout of an older main) measured in
 * the same interleaved runs, so a change to the start path shows as a before/after pair against the same reference.
 */
const baseBin = process.env.MCP_BENCH_BASE_BIN;

/**
 * Wall time and CPU time (user + system, which the machine's other load hardly changes) of one `keel -p hi`
 * with the scripted model, in the folder `home`. bash's `times` reports the child's CPU time.
 */
function run(home, binary = bin) {
  return new Promise((resolvePromise, reject) => {
    const start = performance.now();
    const args = [
      binary,
      "-p",
      "hi",
      "--provider",
      "scripted",
      "--settings",
      '{"provider-scripted":{"script":"turns.json"}}',
    ];
    const child = spawn("bash", ["-c", '"$@" >/dev/null || exit $?; times >&2', "keel", process.execPath, ...args], {
      cwd: home,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, KEEL_HOME: home, KEEL_TRACE: "1" },
    });
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`keel exited ${code}: ${err}`));
      const wall = performance.now() - start;
      const [user, system] = [
        ...err
          .trim()
          .split("\n")
          .at(-1)
          .matchAll(/(\d+)m([\d.]+)s/g),
      ].map(([, m, s]) => (Number(m) * 60 + Number(s)) * 1000);
      resolvePromise({ wall, cpu: user + system, plugin: pluginSpan(err) });
    });
  });
}
/**
 * The mcp plugin's own load and activation from KEEL_TRACE's marks: from the mark before "loaded" (its import
 * starts there) to "activated". Short spans, so the machine's load disturbs them less than a whole run.
 */
function pluginSpan(trace) {
  const marks = [...trace.matchAll(/\[keel trace\] ([\d.]+) ms (.*)/g)].map(([, t, what]) => ({ t: Number(t), what }));
  const loaded = marks.findIndex((m) => m.what === "loaded @keel/plugin-mcp");
  const activated = marks.find((m) => m.what === "activated @keel/plugin-mcp");
  return loaded > 0 && activated ? activated.t - marks[loaded - 1].t : 0;
}
function home(settings) {
  const dir = mkdtempSync(join(tmpdir(), "keel-bench-mcp-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
  writeFileSync(join(dir, "turns.json"), JSON.stringify(Array.from({ length: 100 }, () => ({ text: "ok" }))));
  return dir;
}
const plain = home({});
const without = home({ plugins: { disabled: ["@keel/plugin-mcp"] } });
const fsRoot = mkdtempSync(join(tmpdir(), "keel-bench-mcp-fs-"));
const threeServers = {
  mcpServers: {
    everything: { command: process.execPath, args: [reference("everything"), "stdio"] },
    memory: {
      command: process.execPath,
      args: [reference("memory")],
      env: { MEMORY_FILE_PATH: join(fsRoot, "m.jsonl") },
    },
    filesystem: { command: process.execPath, args: [reference("filesystem"), fsRoot] },
  },
};
const three = home(threeServers);
const firstEver = await run(three); // no cached lists yet: the servers start once, at session start
await run(plain);
await run(without);
// The base keel gets its own folders: its cache is its own.
const basePlain = baseBin && home({});
const baseThree = baseBin && home(threeServers);
if (baseBin) await Promise.all([run(basePlain, baseBin), run(baseThree, baseBin)]);
const runs = { without: [], plain: [], three: [], basePlain: [], baseThree: [] };
// The order flips every round: a keel started right after another is slower in its first milliseconds (the
// last one is still exiting), which in a fixed order was charged to whichever configuration ran second.
const order = [
  () => run(without).then((r) => runs.without.push(r)),
  () => run(plain).then((r) => runs.plain.push(r)),
  () => run(three).then((r) => runs.three.push(r)),
  ...(baseBin
    ? [
        () => run(basePlain, baseBin).then((r) => runs.basePlain.push(r)),
        () => run(baseThree, baseBin).then((r) => runs.baseThree.push(r)),
      ]
    : []),
];
for (let i = 0; i < RUNS; i++) for (const step of i % 2 ? [...order].reverse() : order) await step();
const wall = (key) => median(runs[key].map((r) => r.wall));
const cpu = (key) => median(runs[key].map((r) => r.cpu));
const plugin = (key) => median(runs[key].map((r) => r.plugin));
const row = (label, key) => [
  label,
  key === "without" ? "-" : ms(plugin(key)),
  ms(wall(key)),
  ratio(wall(key), wall("without")),
  ms(cpu(key)),
  ratio(cpu(key), cpu("without")),
];
printTable(`keel -p with three MCP servers it never uses (median of ${RUNS}, interleaved)`, [
  ["configuration", "plugin load+activate", "wall", "vs mcp disabled", "CPU (user+sys)", "vs mcp disabled"],
  row("the mcp plugin disabled (plugins.disabled)", "without"),
  row("no MCP server", "plain"),
  row("3 servers, tool lists cached", "three"),
  [
    "3 servers, first run ever (they start once)",
    ms(firstEver.plugin),
    ms(firstEver.wall),
    ratio(firstEver.wall, wall("without")),
    ms(firstEver.cpu),
    ratio(firstEver.cpu, cpu("without")),
  ],
  ...(baseBin
    ? [row("base keel: no MCP server", "basePlain"), row("base keel: 3 servers, tool lists cached", "baseThree")]
    : []),
]);
