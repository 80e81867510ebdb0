/**
 * `keel worker --queue redis://…`: takes jobs from a batch's queue until SIGINT or SIGTERM, which stop the tasks
 * it runs and hand their jobs back to the queue, for another worker. Exit code 0 after such a stop, 2 when
 * the command line is wrong or Redis cannot be reached.
 */
import type { CliContext } from "@keel/extensions-api";
import { queueUrl, wholeNumber } from "./options.ts";
import { childRunner, interrupted } from "./runner.ts";
import type { BatchSettings } from "./settings.ts";

export async function run(
  _args: string[],
  options: Record<string, unknown>,
  context: CliContext,
  settings: BatchSettings,
): Promise<number> {
  const say = (text: string) => context.stderr(`${context.command} worker: ${text}\n`);
  const queue = queueUrl(options.queue);
  const concurrency = wholeNumber("concurrency", options.concurrency, 1);
  if (!queue.ok) return (say(queue.problem), 2);
  if (!concurrency.ok) return (say(concurrency.problem), 2);
  if (!queue.value) return (say("name the queue: --queue redis://<host>:<port>"), 2);
  const [{ shownUrl }, { workOnRedis }] = await Promise.all([
    import("./redis-connection.ts"),
    import("./redis-worker.ts"),
  ]);
  const interrupt = interrupted();
  try {
    const worker = await workOnRedis(
      { url: queue.value, name: settings.queue },
      { concurrency: concurrency.value!, lockMs: settings.lockSeconds * 1000 },
      childRunner(context, settings),
      say,
    );
    say(`taking jobs from "${settings.queue}" on ${shownUrl(queue.value)}, ${concurrency.value} at a time`);
    await interrupt.signal;
    say("stopping: the running tasks go back to the queue");
    await worker.close();
    return 0;
  } catch (error) {
    return (say((error as Error).message), 2);
  } finally {
    interrupt.off();
  }
}
