/**
 * The batch's side of the queue on Redis (BullMQ): it adds one job per task — the job id is the idempotency key,
 * so adding one again is a no-op — and collects each job's result as it completes, writing one line per id
 * whatever the deliveries (at least once: redis-worker.ts).
 */
import { Queue, QueueEvents, type Job as QueuedJob } from "bullmq";
import { emptyUsage } from "@keel/extensions-api";
import type { Job } from "./job.ts";
import { reached, type Client, type RedisQueue } from "./redis-connection.ts";
import type { TaskResult } from "./result.ts";

const SWEEP_MS = 5_000;
const ADD_CHUNK = 500;
const PAGE = 500;

/**
 * Adds `jobs` and resolves when each has its result, handing every one to `done` once, or when `signal` aborts
 * (the jobs stay queued, for a batch run again). `warn` hears about Redis errors after the start (BullMQ
 * reconnects by itself).
 */
export async function collectOnRedis(
  queue: RedisQueue,
  jobs: readonly Job[],
  done: (result: TaskResult) => void,
  warn: (text: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const connection = { url: queue.url };
  const events = new QueueEvents(queue.name, { connection });
  const bull = new Queue(queue.name, { connection });
  const pending = new Map(jobs.map((job) => [job.key, job]));
  let finish: () => void = () => undefined;
  const allDone = new Promise<void>((resolve) => (finish = resolve));
  try {
    await reached(bull as Client, queue.url);
    await reached(events as Client, queue.url);
    signal.addEventListener("abort", () => finish(), { once: true });
    bull.on("error", (error) => warn(`Redis: ${error.message}`));
    events.on("error", (error) => warn(`Redis: ${error.message}`));
    const collect = async (key: string) => {
      const job = pending.get(key);
      if (!job || signal.aborted) return;
      const queued = await bull.getJob(key);
      const state = queued ? await queued.getState() : "unknown";
      if (state !== "completed" && state !== "failed") return;
      if (!pending.delete(key)) return;
      done(resultOf(job, queued as QueuedJob, state));
      await queued!.remove().catch(() => undefined);
      if (pending.size === 0) finish();
    };
    let sweeping = false;
    const sweep = async () => {
      if (sweeping) return;
      sweeping = true;
      try {
        // Collected jobs are removed, so the finished sets hold what is left to collect (and other batches').
        const ours: string[] = [];
        for (const state of ["completed", "failed"] as const)
          for (let start = 0; ; start += PAGE) {
            const page = await bull.getJobs(state, start, start + PAGE - 1);
            for (const queued of page) if (queued.id && pending.has(queued.id)) ours.push(queued.id);
            if (page.length < PAGE) break;
          }
        for (const key of ours) await collect(key);
      } finally {
        sweeping = false;
      }
    };
    // Subscribed before the jobs are added, and a sweep after: a job that completes in between is not missed.
    events.on("completed", ({ jobId }) => void collect(jobId).catch((e: Error) => warn(e.message)));
    events.on("failed", ({ jobId }) => void collect(jobId).catch((e: Error) => warn(e.message)));
    for (let i = 0; i < jobs.length; i += ADD_CHUNK)
      await bull.addBulk(
        jobs.slice(i, i + ADD_CHUNK).map((job) => ({ name: job.id, data: job, opts: { jobId: job.key } })),
      );
    if (pending.size === 0 || signal.aborted) finish();
    await sweep();
    // Events are a stream Redis trims: a slow batch could miss one, so it also looks now and then.
    const timer = setInterval(() => void sweep().catch((e: Error) => warn(e.message)), SWEEP_MS);
    await allDone;
    clearInterval(timer);
  } finally {
    await Promise.allSettled([events.close(), bull.close()]);
  }
}

function resultOf(job: Job, queued: QueuedJob, state: "completed" | "failed"): TaskResult {
  const value = queued.returnvalue as Partial<TaskResult> | undefined;
  if (state === "completed" && value && typeof value === "object" && value.id === job.id) return value as TaskResult;
  const error =
    state === "failed"
      ? `the queue gave up on it: ${queued.failedReason}`
      : "the worker that ran it returned no result for it";
  return {
    id: job.id,
    reason: "failed",
    finalText: "",
    usage: emptyUsage(),
    cost: 0,
    turns: 0,
    durationMs: 0,
    error,
  };
}
