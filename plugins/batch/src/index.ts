/**
 * batch: `keel batch <tasks.jsonl>` runs many tasks, each a keel run of its own, and writes one result line per
 * task; `keel worker --queue redis://…` takes a batch's jobs from Redis, on this machine or another. Only
 * registration happens here: a command's module (and BullMQ, only with `--queue`) loads when it runs.
 */
import { definePlugin, type CliCommandSpec, type FlagSpec } from "@keel/extensions-api";
import { BatchSettingsSchema, type BatchSettings } from "./settings.ts";

type Body = (
  args: string[],
  options: Record<string, unknown>,
  context: Parameters<CliCommandSpec["run"]>[2],
  settings: BatchSettings,
) => Promise<number>;

const queue = (description: string): FlagSpec => ({
  name: "queue",
  type: "string",
  valueName: "<redis://host:port>",
  description,
});
const number = (name: string, description: string): FlagSpec => ({
  name,
  type: "string",
  valueName: "<n>",
  description,
});

export default definePlugin({
  settings: BatchSettingsSchema,
  activate(api) {
    const lazy =
      (load: () => Promise<{ run: Body }>): CliCommandSpec["run"] =>
      async (args, options, context) =>
        (await load()).run(args, options, context, api.settings);
    api.registerCliCommand({
      name: "batch",
      description: "run every task of a JSONL file (id, prompt, workspace), one result line per task",
      arguments: "<tasks.jsonl>",
      options: [
        number("concurrency", "tasks at a time (default 4; with --queue, 0 only queues and collects)"),
        { name: "out", type: "string", valueName: "<results.jsonl>", description: "results file (resumable)" },
        queue("run on BullMQ in this Redis, with `keel worker` processes (default: a queue inside this process)"),
        number("max-turns", "budget of a task that sets none: requests to the model"),
        number("max-tokens", "budget of a task that sets none: tokens (input, output and cache)"),
        number("max-seconds", "budget of a task that sets none: seconds"),
      ],
      run: lazy(() => import("./batch-command.ts")),
    });
    api.registerCliCommand({
      name: "worker",
      description: "take batch jobs from a Redis queue until stopped (SIGINT, SIGTERM)",
      options: [queue("the Redis holding the batch's queue"), number("concurrency", "tasks at a time (default 1)")],
      run: lazy(() => import("./worker-command.ts")),
    });
  },
});
