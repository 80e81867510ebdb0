// Batch throughput, tasks per minute, with the scripted model (each task three turns: `read`, `bash`, an answer)
// at 1, 2 and 4 workers: `keel batch` on its embedded queue (--concurrency N), and on BullMQ with N `keel worker`
// processes (when redis-server is installed). The reference, measured in the same run, is the same tasks as
// sessions inside one process (KeelRuntime, as the batch would run them without a process each): what the
// process per task costs (plugins/batch/README.md says why it is paid).
//
// BATCH_BENCH_MODEL_MS makes the model take that long over each reply, as a real one would: the process's start-up
// then weighs less against the task.
//
//   node bench/batch.bench.mjs          BATCH_BENCH_TASKS=20 BATCH_BENCH_ROUNDS=3 BATCH_BENCH_MODEL_MS=0
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { KeelRuntime, readDistribution } from "@keel/core";
import { median, printTable } from "./lib.mjs";

const TASKS = Number(process.env.BATCH_BENCH_TASKS ?? 20);
const ROUNDS = Number(process.env.BATCH_BENCH_ROUNDS ?? 3);
const WORKERS = [1, 2, 4];
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "keel.cjs");
const MODEL_MS = Number(process.env.BATCH_BENCH_MODEL_MS ?? 0);
// One delta per reply, the model's time before it.
const timing = { delayMs: MODEL_MS, chunkSize: 4096 };
const script = [
  { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }], ...timing },
  { toolCalls: [{ name: "bash", arguments: { command: "wc -c a.txt" } }], ...timing },
  { text: "done", usage: { input: 100, output: 10 }, ...timing },
];
const taskSettings = { "provider-scripted": { script }, permissions: { mode: "full" } };

/** A folder with a shared workspace, a home, and the tasks file. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), "keel-batch-bench-"));
  mkdirSync(join(dir, "w"));
  mkdirSync(join(dir, "home"));
  writeFileSync(join(dir, "w", "a.txt"), "some text\n");
  const line = (i) => JSON.stringify({ id: `t${i}`, prompt: "go", workspace: "w", settings: taskSettings });
  writeFileSync(join(dir, "tasks.jsonl"), Array.from({ length: TASKS }, (_, i) => line(i)).join("\n") + "\n");
  return dir;
}

/**
 * Runs `keel <args>` in `dir`; resolves on exit (rejects on a non-zero code).
 * @returns {Promise<void>}
 */
function keel(args, dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: dir,
      env: { ...process.env, KEEL_HOME: join(dir, "home") },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) =>
      code === 0 ? resolve(undefined) : reject(new Error(`keel ${args[0]} exited ${code}: ${stderr}`)),
    );
  });
}

/** A long-running `keel worker`, resolved once it takes jobs; `stop()` ends it. */
function worker(dir, url, queue) {
  const settings = JSON.stringify({ batch: { queue } });
  const child = spawn(process.execPath, [bin, "worker", "--queue", url, "--settings", settings], {
    cwd: dir,
    env: { ...process.env, KEEL_HOME: join(dir, "home") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise((resolve) => child.on("close", resolve));
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
      if (stderr.includes("taking jobs")) resolve({ stop: () => (child.kill("SIGTERM"), exited) });
    });
    child.on("close", (code) => reject(new Error(`keel worker exited ${code}: ${stderr}`)));
  });
}

async function embedded(n) {
  const dir = setup();
  const start = performance.now();
  await keel(["batch", "tasks.jsonl", "--provider", "scripted", "--concurrency", String(n), "--out", "out.jsonl"], dir);
  return performance.now() - start;
}

let rounds = 0;
async function onBullmq(n, url) {
  const dir = setup();
  const queue = `bench-${process.pid}-${rounds++}`;
  const workers = await Promise.all(Array.from({ length: n }, () => worker(dir, url, queue)));
  const start = performance.now();
  const settings = JSON.stringify({ batch: { queue } });
  await keel(
    [
      "batch",
      "tasks.jsonl",
      "--provider",
      "scripted",
      "--queue",
      url,
      "--concurrency",
      "0",
      "--out",
      "out.jsonl",
    ].concat(["--settings", settings]),
    dir,
  );
  const elapsed = performance.now() - start;
  await Promise.all(workers.map((w) => w.stop()));
  return elapsed;
}

const distribution = readDistribution(join(root, "package.json"));
async function inProcess(n) {
  const dir = setup();
  const options = {
    keelHome: join(dir, "home"),
    distribution,
    extraSettings: [taskSettings, { provider: "scripted" }],
  };
  let next = 0;
  const start = performance.now();
  const slot = async () => {
    while (next++ < TASKS) {
      const runtime = await KeelRuntime.create({ ...options, cwd: join(dir, "w") });
      await runtime.pickModel();
      const result = await runtime.prompt("go");
      await runtime.shutdown("completed");
      if (result.reason !== "stop") throw new Error(`in-process task ended: ${result.reason}`);
    }
  };
  await Promise.all(Array.from({ length: n }, slot));
  return performance.now() - start;
}

/** A redis-server of the bench's own on a free port, or undefined when none is installed. */
async function startRedis() {
  const port = await new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), "keel-batch-bench-redis-"));
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", ""], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  return new Promise((resolve) => {
    let out = "";
    child.on("error", () => resolve(undefined));
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("Ready to accept connections"))
        resolve({ url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") });
    });
  });
}

const redis = await startRedis();
/** @type {[string, (n: number) => Promise<number>][]} */
const cases = [
  ["sessions in one process (reference)", inProcess],
  ["keel batch, embedded queue", embedded],
];
if (redis) cases.push(["keel batch on BullMQ, keel worker processes", (n) => onBullmq(n, redis.url)]);
const times = cases.map(() => WORKERS.map(() => []));
await inProcess(1); // warm-up: the plugins' modules and code caches
for (let round = 0; round < ROUNDS; round++)
  for (const [c, [, run]] of cases.entries()) for (const [w, n] of WORKERS.entries()) times[c][w].push(await run(n));
redis?.stop();

const perMinute = (ms) => (TASKS / ms) * 60_000;
const reference = times[0].map((t) => perMinute(median(t)));
const title = `${TASKS} scripted tasks of 3 turns, the model ${MODEL_MS} ms a reply, median of ${ROUNDS}`;
printTable(`batch throughput, tasks per minute: ${title}`, [
  ["how", ...WORKERS.map((n) => `${n} worker${n > 1 ? "s" : ""}`), ...WORKERS.map((n) => `vs reference at ${n}`)],
  ...cases.map(([name], c) => {
    const rates = times[c].map((t) => perMinute(median(t)));
    return [name, ...rates.map((r) => r.toFixed(0)), ...rates.map((r, w) => `${(r / reference[w]).toFixed(2)}×`)];
  }),
]);
if (!redis) console.log("\nredis-server is not installed: the BullMQ row is left out (apt-get install redis-server).");
