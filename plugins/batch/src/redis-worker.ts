/**
 * A worker on the queue on Redis (BullMQ): `keel worker`, and the batch itself with `--concurrency` above 0. It
 * renews its hold on each job it runs while it lives; when it dies, the hold runs out and another worker's stall
 * check gives the job to the next worker.
 */
import { WaitingError, Worker } from "bullmq";
import { JobSchema, type Job } from "./job.ts";
import { reached, type Client, type RedisQueue } from "./redis-connection.ts";
import type { TaskResult } from "./result.ts";

/** A job whose workers all died this many times is failed (its result says so) rather than given out again. */
const MAX_DELIVERIES = 3;

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
