// The bash tool's per-call overhead: `bash({ command: "true" })` through the real tool on the real local backend,
// as a ratio to a bare child_process.spawn of `true` measured in the same run (runs interleaved, medians).
// Two steps in between show where the time goes: a bare `bash -c true` (the shell's own start-up, which any
// shell tool pays) and spawnProcess alone (process group, one pipe, exit wait) without the tool around it.
// `spawnSync(bash -c "echo x")` is the reference issue 14 sets a tool turn against. The tool runs on the local
// backend both ways it starts commands: the long-lived shell helper (the default) and a spawn from keel each.
// BASH_BENCH_BALLAST_MB (default 0) first fills that much memory, so the process forks like a keel run of
// that size would (a fork copies page tables; a run holds ~100 MB where this bench holds ~60).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bashToolCase, importSource, interleaved, median, ms, printTable, ratio } from "./lib.mjs";

/** @type {typeof import("../plugins/ops-local/src/local-ops.ts")} */
const { createLocalOps } = await importSource("plugins/ops-local/src/local-ops.ts");
/** @type {typeof import("../plugins/ops-local/src/spawn.ts")} */
const { spawnProcess, findShell } = await importSource("plugins/ops-local/src/spawn.ts");
/** @type {typeof import("../plugins/ops-local/src/shell-host.ts")} */
const { ShellHost, findPerl } = await importSource("plugins/ops-local/src/shell-host.ts");

const RUNS = Number(process.env.BASH_BENCH_RUNS ?? 150);
const WARMUP = 15;
const ballast = Array.from({ length: Number(process.env.BASH_BENCH_BALLAST_MB ?? 0) }, () =>
  Buffer.alloc(1024 * 1024, 1),
);
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

const host = new ShellHost(findPerl());
async function viaHelper() {
  const start = performance.now();
  await host.run("true", { cwd, env }).exited;
  return performance.now() - start;
}

const spawning = createLocalOps({ cwd, longLivedShell: false });
const longLived = createLocalOps({ cwd });
const viaToolSpawning = await bashToolCase(spawning, join(dir, "data"));
const viaToolLongLived = await bashToolCase(longLived, join(dir, "data"));

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
  ["long-lived shell: true", viaHelper],
  ["bash tool, spawning: true", viaToolSpawning],
  ["bash tool, long-lived shell: true", viaToolLongLived],
];
const samples = await interleaved(cases, WARMUP, RUNS);
for (const closing of [host, longLived]) closing.close();
rmSync(dir, { recursive: true, force: true });

const base = median(samples[0]);
const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
printTable(`bash per-call overhead (${RUNS} runs each, interleaved, medians; ${rss} MB resident)`, [
  ["case", "median", "vs bare spawn(true)"],
  ...cases.map(([name], k) => [name, ms(median(samples[k])), ratio(median(samples[k]), base)]),
]);
