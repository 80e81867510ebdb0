// The bash tool's per-call overhead: `bash({ command: "true" })` through the real tool on the real local backend,
// as a ratio to a bare child_process.spawn of `true` measured in the same run (runs interleaved, medians).
// Two steps in between show where the time goes: a bare `bash -c true` (the shell's own start-up, which any
// shell tool pays) and spawnProcess alone (process group, one pipe, exit wait) without the tool around it.
// `spawnSync(bash -c "echo x")` is the reference issue 14 sets a tool turn against.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bashToolCase, importSource, interleaved, median, ms, printTable, ratio } from "./lib.mjs";

/** @type {typeof import("../plugins/ops-local/src/local-ops.ts")} */
const { createLocalOps } = await importSource("plugins/ops-local/src/local-ops.ts");
/** @type {typeof import("../plugins/ops-local/src/spawn.ts")} */
const { spawnProcess, findShell } = await importSource("plugins/ops-local/src/spawn.ts");

const RUNS = Number(process.env.BASH_BENCH_RUNS ?? 150);
const WARMUP = 15;
const dir = mkdtempSync(join(tmpdir(), "keel-bench-bash-"));
const cwd = join(dir, "workspace");
mkdirSync(cwd);
const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined));
const shell = findShell(env.PATH);

function bare(command, args) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(command, args, { cwd });
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - start));
  });
}

async function direct() {
  const start = performance.now();
  await spawnProcess("true", { cwd, env }).exited;
  return performance.now() - start;
}

const viaTool = await bashToolCase(createLocalOps({ cwd }), join(dir, "data"));

/** @type {[string, () => Promise<number>][]} */
const cases = [
  ["bare spawn(true)", () => bare("true", [])],
  [`bare spawn(${shell} -c true)`, () => bare(shell, ["-c", "true"])],
  [
    `spawnSync(${shell} -c "echo x")`,
    async () => {
      const start = performance.now();
      spawnSync(shell, ["-c", "echo x"]);
      return performance.now() - start;
    },
  ],
  ["spawnProcess(true)", direct],
  ["bash tool: true", viaTool],
];
const samples = await interleaved(cases, WARMUP, RUNS);
rmSync(dir, { recursive: true, force: true });

const base = median(samples[0]);
printTable(`bash per-call overhead (${RUNS} runs each, interleaved, medians)`, [
  ["case", "median", "vs bare spawn(true)"],
  ...cases.map(([name], k) => [name, ms(median(samples[k])), ratio(median(samples[k]), base)]),
]);
