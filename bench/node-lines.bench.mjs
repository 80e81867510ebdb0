// keel on each supported Node line (scripts/node-lines.mjs; `node scripts/node-lines.mjs install` first), run as the
// `keel` command so its shebang's flags apply, with the `node` of that line first on the PATH. Against bench:peers'
// mock model (Chat Completions, answering at once): `--version`, a 1-turn run, the median gap of a 20-turn run that
// calls the shell with `echo`, and both runs' peak RSS; each as a ratio to that line's own floors measured in the
// same rounds: `node -e 0` (time and peak RSS) and a bare `spawnSync("bash", ["-c", "echo x"])` from that line.
// Rounds are interleaved across lines; round 0 warms caches and is not counted. BENCH_RUNS (default 5) rounds.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeLines, missingLines } from "../scripts/node-lines.mjs";
import { median, printTable } from "./lib.mjs";
import { keel } from "./peers/agents/keel.mjs";
import { oneTurnRun, timed, toolTurnsRun, versionRun } from "./peers/measure.mjs";
import { startPeerMock } from "./peers/mock.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const bin = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));
const SPAWNS = [
  'const { spawnSync } = require("node:child_process"); const t = [];',
  'for (let i = 0; i < 10; i++) { const s = performance.now(); spawnSync("bash", ["-c", "echo x"]);',
  "t.push(performance.now() - s); } t.sort((a, b) => a - b); console.log((t[4] + t[5]) / 2);",
].join(" ");

if (missingLines().length) {
  console.log(
    `skipped: Node ${missingLines().map((l) => l.version)} not installed (node scripts/node-lines.mjs install)`,
  );
  process.exit(0);
}
const mock = await startPeerMock({ answerMs: 0 });
const base = mkdtempSync(join(tmpdir(), "keel-bench-lines-"));
const lines = nodeLines().map((line) => {
  const home = join(base, `home-${line.line}`);
  mkdirSync(home, { recursive: true });
  const env = { PATH: `${dirname(line.bin)}:/usr/bin:/bin`, HOME: home, LANG: "C.UTF-8" };
  const prepared = keel.prepare({ home, work: home, mockUrl: mock.url, agents: "" });
  const subject = {
    agent: keel,
    command: { file: bin, args: [] },
    env: { ...env, ...prepared },
    cwd: home,
    mock,
    home,
  };
  const cols = {
    node: [],
    nodeRss: [],
    spawn: [],
    version: [],
    one: [],
    oneRss: [],
    turn: [],
    turnsRss: [],
    first: [],
  };
  return { ...line, env, home, subject, cols };
});

for (let round = 0; round <= RUNS; round++) {
  for (const l of lines) {
    const floor = await timed(l.bin, ["-e", "0"], { env: l.env, cwd: l.home });
    const floorRss = await timed(l.bin, ["-e", "0"], { env: l.env, cwd: l.home, rssFile: join(l.home, "rss.txt") });
    const spawns = await timed(l.bin, ["-e", SPAWNS], { env: l.env, cwd: l.home });
    const version = await versionRun(l.subject);
    const one = await oneTurnRun(l.subject);
    const many = await toolTurnsRun(l.subject);
    if (round === 0) continue;
    const samples = [floor.ms, floorRss.rssMb, Number(spawns.stdout), version, one.ms, one.rssMb, many.ms, many.rssMb];
    Object.values(l.cols).forEach((col, i) => col.push(i < samples.length ? samples[i] : one.firstBytes));
  }
}
await mock.close();
rmSync(base, { recursive: true, force: true });

const m = (values) => median(values.filter((v) => v !== undefined));
const x = (v, base) => `${(v / base).toFixed(2)}×`;
printTable(`keel on each Node line (medians of ${RUNS} interleaved rounds)`, [
  [
    "Node",
    "node -e 0",
    "bash spawn",
    "--version",
    "1-turn run",
    "per tool turn",
    "peak RSS 1-turn",
    "peak RSS 20 turns",
  ],
  ...lines.map((l) => {
    const c = Object.fromEntries(Object.entries(l.cols).map(([k, v]) => [k, m(v)]));
    return [
      l.version,
      `${c.node.toFixed(0)} ms, ${c.nodeRss.toFixed(0)} MB`,
      `${c.spawn.toFixed(1)} ms`,
      `${c.version.toFixed(0)} ms (${x(c.version, c.node)})`,
      `${c.one.toFixed(0)} ms (${x(c.one, c.node)})`,
      `${c.turn.toFixed(1)} ms (${(c.turn - c.spawn).toFixed(1)} ms over the spawn)`,
      `${c.oneRss.toFixed(0)} MB (${x(c.oneRss, c.nodeRss)})`,
      `${c.turnsRss.toFixed(0)} MB (${x(c.turnsRss, c.nodeRss)})`,
    ];
  }),
]);
const first = lines[0] && m(lines[0].cols.first);
console.log(
  `\nfirst request: ${first} bytes (${(first / 1024).toFixed(2)} KiB); goals: --version ≤ 1.2×, 1-turn ≤ 2.5×,`,
);
console.log("tool turn ≤ 1 ms over the spawn, 20-turn peak RSS ≤ 1.6× node -e 0, first request < 5 KB");
