/** The runner a batch or a worker gives its queue: each job as a child keel process, with this plugin's settings. */
import { join } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import { agentCommand } from "./agent-command.ts";
import type { Job } from "./job.ts";
import type { TaskResult } from "./result.ts";
import { runJob } from "./run-job.ts";
import type { BatchSettings } from "./settings.ts";

export type Runner = (job: Job, signal?: AbortSignal) => Promise<TaskResult>;

export function childRunner(context: CliContext, settings: BatchSettings): Runner {
  // Tasks that name no distribution run the agent running this command, with its home.
  const agent = { ...agentCommand(context.distributionFile), home: context.keelHome };
  const workDir = settings.workDir ?? join(context.keelHome, "batch", "work");
  const graceMs = settings.graceSeconds * 1000;
  return (job, signal) => runJob(job, { agent, workDir, graceMs, ...(signal ? { signal } : {}) });
}

/** Resolves on the first SIGINT or SIGTERM, with the exit code it calls for; `off()` stops listening. */
export function interrupted(): { signal: Promise<number>; off(): void } {
  let off = () => undefined as void;
  const signal = new Promise<number>((resolve) => {
    const onInt = () => resolve(130);
    const onTerm = () => resolve(143);
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    off = () => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    };
  });
  return { signal, off };
}
