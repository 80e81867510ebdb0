// Per tool turn of a whole `keel -p` run, as bench:peers measures it (the gap between the model's requests as the
// peers' mock sees them, median over 20 turns that each call the shell with `echo`), beside the floor issue 14
// sets it against: a bare spawnSync(`bash -c "echo x"`) from Node, measured before every run. KEEL_REF=<a
// keel.cjs> runs that build too, interleaved with this tree's (the order alternating by round), for a
// before/after ratio in one run (build both first); TOOL_TURNS_RUNS (default 7) counted rounds after one warm-up round.
// Under the table: the range of the per-round ratios and the machine's idle share during the rounds, since other
// processes on a 2-core machine move a run's figures more than most changes do.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, printTable, ratio } from "./lib.mjs";
import { keel } from "./peers/agents/keel.mjs";
import { agentEnv } from "./peers/isolation.mjs";
import { floorRun, toolTurnsRun } from "./peers/measure.mjs";
import { watchMachine } from "./peers/machine.mjs";
import { startPeerMock } from "./peers/mock.mjs";

const ms2 = (v) => `${v.toFixed(2)} ms`;
const RUNS = Number(process.env.TOOL_TURNS_RUNS ?? 7);
const NOWHERE = "http://127.0.0.1:9"; // a closed port: anything that would phone home fails at once
const tree = fileURLToPath(new URL("../bin/keel.cjs", import.meta.url));
const builds = [["this tree", tree], ...(process.env.KEEL_REF ? [["reference", process.env.KEEL_REF]] : [])];

const base = mkdtempSync(join(tmpdir(), "keel-bench-turns-"));
const mock = await startPeerMock();
const floorHome = join(base, "floor");
mkdirSync(join(floorHome, "tmp"), { recursive: true });
// The agents' clean environment: no inherited NODE_EXTRA_CA_CERTS, no real home for bash to read.
const floorEnv = agentEnv(floorHome, NOWHERE, {});
const subjects = builds.map(([name, bin], i) => {
  const home = join(base, `home-${i}`);
  const work = join(base, `work-${i}`);
  for (const dir of [home, join(home, "tmp"), work]) mkdirSync(dir, { recursive: true });
  spawnSync("git", ["init", "-q"], { cwd: work });
  const env = agentEnv(home, NOWHERE, keel.prepare({ home, work, mockUrl: mock.url, agents: "" }));
  const subject = { agent: keel, command: { file: bin, args: [] }, env, cwd: work, mock, home };
  return { name, subject, turns: [], floors: [] };
});

let machine;
for (let round = 0; round <= RUNS; round++) {
  if (round === 1) machine = watchMachine();
  for (const s of round % 2 ? [...subjects].reverse() : subjects) {
    const floor = await floorRun(floorEnv, floorHome);
    const run = await toolTurnsRun(s.subject);
    if (round === 0) continue;
    s.floors.push(floor.spawnMs);
    s.turns.push(run.ms);
  }
}
const { idleShare, othersShare } = machine.stop();
await mock.close();
rmSync(base, { recursive: true, force: true });

const floor = median(subjects.flatMap((s) => s.floors));
printTable(`per tool turn, ${RUNS} rounds (spawnSync bash -c "echo x": ${ms2(floor)})`, [
  ["build", "per tool turn", "above spawnSync", "vs this tree"],
  ...subjects.map((s) => {
    const turn = median(s.turns);
    return [s.name, ms2(turn), `+${ms2(turn - floor)}`, ratio(turn, median(subjects[0].turns))];
  }),
]);
const pct = (share) => `${Math.round(share * 100)} %`;
const ratios = subjects
  .slice(1)
  .map((s) => s.turns.map((turn, i) => turn / subjects[0].turns[i]).sort((a, b) => a - b));
for (const [i, r] of ratios.entries())
  console.log(`${subjects[i + 1].name} ÷ this tree, per round: ${r[0].toFixed(2)}× to ${r.at(-1).toFixed(2)}×`);
console.log(`machine: idle ${pct(idleShare)}, busy with other processes than this bench ${pct(othersShare)}`);
