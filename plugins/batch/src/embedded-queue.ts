/**
 * The default queue: in this process, no server. `concurrency` jobs run at a time, in the file's order; once
 * `signal` aborts, no other job starts.
 */
import type { Job } from "./job.ts";
import type { TaskResult } from "./result.ts";

export async function runEmbedded(
  jobs: readonly Job[],
  concurrency: number,
  run: (job: Job) => Promise<TaskResult>,
  done: (result: TaskResult) => void,
  signal: AbortSignal,
): Promise<void> {
  let next = 0;
  const slot = async () => {
    while (next < jobs.length && !signal.aborted) done(await run(jobs[next++]!));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, slot));
}
