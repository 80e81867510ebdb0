/**
 * The queue on Redis, through BullMQ: a batch adds its jobs (the job id is the idempotency key, so adding one
 * again is a no-op) and collects each job's result as it completes; workers (`keel worker`, and the batch itself
 * with `--concurrency` above 0) take jobs. A worker renews its hold on a job while it lives; when it dies, the
 * hold runs out and another worker's stall check gives the job to the next worker (at least once: a result line
 * is written once per id whatever the deliveries).
 */
import { Queue, QueueEvents, WaitingError, Worker, type Job as QueuedJob } from "bullmq";
import { emptyUsage } from "@keel/extensions-api";
import { JobSchema, type Job } from "./job.ts";
import type { TaskResult } from "./result.ts";

/** A job whose workers all died this many times is failed (its result says so) rather than given out again. */
const MAX_DELIVERIES = 3;
const SWEEP_MS = 5_000;
const ADD_CHUNK = 500;
const PAGE = 500;

export interface RedisQueue {
  url: string;
  name: string;
}

/** The URL without its password, for messages. */
export function shownUrl(url: string): string {
  return url.replace(/\/\/([^@/]*):[^@/]*@/, "//$1:***@");
}

/** What the three BullMQ clients share for this: they emit `error` and can be awaited until ready. */
interface Client {
  waitUntilReady(): Promise<unknown>;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
}

/** Resolves once `client` has reached Redis; rejects with what went wrong instead of retrying forever. */
async function reached(client: Client, url: string): Promise<void> {
  let onError: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = (error) => reject(new Error(`cannot reach Redis at ${shownUrl(url)}: ${error.message}`));
  });
  client.on("error", onError);
  try {
    await Promise.race([client.waitUntilReady(), failed]);
  } finally {
    client.off("error", onError);
  }
}

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

export interface WorkerHandle {
  /** Stops taking jobs; the running ones are stopped and handed back to the queue for another worker. */
  close(): Promise<void>;
}

/** Takes jobs from `queue`, `concurrency` at a time, running each with `run`. */
export async function workOnRedis(
  queue: RedisQueue,
  options: { concurrency: number; lockMs: number },
  run: (job: Job, signal: AbortSignal) => Promise<TaskResult>,
  log: (text: string) => void,
): Promise<WorkerHandle> {
  const worker = new Worker(
    queue.name,
    async (queued, token, signal) => {
      const parsed = JobSchema.safeParse(queued.data);
      if (!parsed.success) throw new Error(`job ${queued.id} is not a keel batch job: ${parsed.error.message}`);
      log(`started ${parsed.data.id}`);
      const stop = signal ?? new AbortController().signal;
      const result = await run(parsed.data, stop);
      if (stop.aborted) {
        // Interrupted here, not finished: back to the queue, for another worker.
        await queued.moveToWait(token);
        throw new WaitingError();
      }
      log(`finished ${parsed.data.id} (${result.reason})`);
      return result;
    },
    {
      connection: { url: queue.url },
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: MAX_DELIVERIES - 1,
      autorun: false,
    },
  );
  await reached(worker as Client, queue.url);
  worker.on("error", (error) => log(`Redis: ${error.message}`));
  void worker.run();
  return {
    async close() {
      worker.cancelAllJobs("the worker is stopping");
      await worker.close();
    },
  };
}
