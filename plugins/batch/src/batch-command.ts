/**
 * `keel batch <tasks.jsonl>`: reads the tasks, skips those the results file already has, runs the rest on the
 * embedded queue or on Redis, and returns once each has its result line. Exit code 0 when every line of the
 * tasks file was a task, 1 when some were not (each is reported by its line; the others still ran), 2 for a
 * command line that cannot run, 130/143 when interrupted (the unfinished tasks then have no line: run again).
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import { runEmbedded } from "./embedded-queue.ts";
import { batchKeyOf, toJob, type Job } from "./job.ts";
import { defaultBudget, forwardedFlags, queueUrl, settingsLayers, wholeNumber } from "./options.ts";
import type { TaskResult } from "./result.ts";
import { fileResults, stdoutResults, type ResultsSink } from "./results-file.ts";
import { childRunner, interrupted } from "./runner.ts";
import type { BatchSettings } from "./settings.ts";
import { parseTasks } from "./task.ts";

export const DEFAULT_CONCURRENCY = 4;

export async function run(
  args: string[],
  options: Record<string, unknown>,
  context: CliContext,
  settings: BatchSettings,
): Promise<number> {
  const say = (text: string) => context.stderr(`${context.command} batch: ${text}\n`);
  const [file] = args;
  const queue = queueUrl(options.queue);
  const concurrency = wholeNumber(
    "concurrency",
    options.concurrency,
    DEFAULT_CONCURRENCY,
    queue.ok && queue.value ? 0 : 1,
  );
  const budget = defaultBudget(options);
  const layers = settingsLayers(options.settings, context.cwd);
  if (!queue.ok) return (say(queue.problem), 2);
  if (!concurrency.ok) return (say(concurrency.problem), 2);
  if (!budget.ok) return (say(budget.problem), 2);
  if (!layers.ok) return (say(layers.problem), 2);
  if (file === undefined) return (say("name the tasks file: batch <tasks.jsonl>"), 2);

  const tasksFile = resolve(context.cwd, file);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(tasksFile);
  } catch (error) {
    return (say(`cannot read the tasks file ${file}: ${(error as Error).message}`), 2);
  }
  const { tasks, problems } = parseTasks(bytes, file);
  for (const problem of problems) say(`${problem}; that line is left out, the other tasks run`);

  const out = typeof options.out === "string" ? resolve(context.cwd, options.out) : undefined;
  let results: ResultsSink;
  try {
    results = out ? fileResults(out, say) : stdoutResults(context.stdout);
  } catch (error) {
    return (say(`cannot use the results file ${String(options.out)}: ${(error as Error).message}`), 2);
  }
  const todo = tasks.filter(({ task }) => !results.finished.has(task.id));
  if (todo.length < tasks.length) say(`${tasks.length - todo.length} of ${tasks.length} tasks have results; skipped`);
  const defaults = {
    batchKey: batchKeyOf(out, hostname()),
    base: dirname(tasksFile),
    settings: layers.value,
    flags: forwardedFlags(options),
    budget: budget.value,
  };
  const jobs = todo.map(({ task }) => toJob(task, defaults));

  const stop = new AbortController();
  const interrupt = interrupted();
  let exit = problems.length > 0 ? 1 : 0;
  void interrupt.signal.then((code) => {
    exit = code;
    say("interrupted: stopping the running tasks; run the same command again to finish the batch");
    stop.abort();
  });
  const reasons = new Map<string, number>();
  let count = 0;
  const done = (result: TaskResult) => {
    // A task stopped by the interrupt has not finished: no line, so that running the batch again runs it.
    if (stop.signal.aborted && result.reason === "aborted") return;
    if (!results.write(result)) return;
    reasons.set(result.reason, (reasons.get(result.reason) ?? 0) + 1);
    say(`[${++count}/${jobs.length}] ${result.id}: ${result.reason}`);
  };
  const runner = childRunner(context, settings);
  try {
    if (queue.value) await onRedis(queue.value, jobs, concurrency.value!, context, settings, done, stop.signal, say);
    else await runEmbedded(jobs, concurrency.value!, (job) => runner(job, stop.signal), done, stop.signal);
  } catch (error) {
    return (say((error as Error).message), 2);
  } finally {
    interrupt.off();
  }
  const tally = [...reasons].map(([reason, n]) => `${n} ${reason}`).join(", ");
  say(`${count} of ${jobs.length} tasks ended${tally ? ` (${tally})` : ""}${out ? `; results in ${options.out}` : ""}`);
  return exit;
}

async function onRedis(
  url: string,
  jobs: Job[],
  concurrency: number,
  context: CliContext,
  settings: BatchSettings,
  done: (result: TaskResult) => void,
  signal: AbortSignal,
  say: (text: string) => void,
): Promise<void> {
  const [{ collectOnRedis }, { workOnRedis }] = await Promise.all([
    import("./redis-batch.ts"),
    import("./redis-worker.ts"),
  ]);
  const queue = { url, name: settings.queue };
  const worker =
    concurrency > 0
      ? await workOnRedis(
          queue,
          { concurrency, lockMs: settings.lockSeconds * 1000 },
          childRunner(context, settings),
          () => undefined,
        )
      : undefined;
  try {
    await collectOnRedis(queue, jobs, done, say, signal);
  } finally {
    await worker?.close();
  }
}
