/**
 * A job: a task made ready to run anywhere — paths absolute, the batch's flags and settings files read into it
 * — so a worker on another machine needs nothing from the machine that queued it. Through Redis it is data
 * another program wrote: a worker parses it with `JobSchema` before running it.
 */
import { createHash, randomUUID } from "node:crypto";
import { isAbsolute, resolve } from "node:path";
import { z } from "@keel/extensions-api";
import { BudgetSchema, type Budget, type Task } from "./task.ts";

export const ForwardedFlagsSchema = z
  .object({
    provider: z.string(),
    model: z.string(),
    thinking: z.string(),
    "permission-mode": z.string(),
  })
  .partial();

/** The main command's flags a batch passes on to every task (`--provider`, `--model`, …). */
export type ForwardedFlags = z.output<typeof ForwardedFlagsSchema>;

export const JobSchema = z.object({
  id: z.string().min(1),
  /** The idempotency key: the batch's key and the task's id. Queues hold one job per key. */
  key: z.string().min(1),
  prompt: z.string().min(1),
  workspace: z.union([z.object({ path: z.string() }), z.object({ git: z.string(), ref: z.string().optional() })]),
  distribution: z.string().optional(),
  /** Settings layers, lowest first: the batch's `--settings`, then the task's. */
  settings: z.array(z.record(z.string(), z.unknown())),
  flags: ForwardedFlagsSchema,
  budget: BudgetSchema,
});

export type Job = z.output<typeof JobSchema>;

export interface BatchDefaults {
  /** The batch's key: the same batch (the same results file on the same machine) always has the same. */
  batchKey: string;
  /** Where relative workspace and distribution paths start: the tasks file's folder. */
  base: string;
  settings: Record<string, unknown>[];
  flags: ForwardedFlags;
  budget: Budget;
}

export function toJob(task: Task, defaults: BatchDefaults): Job {
  const workspace = typeof task.workspace === "string" ? { path: task.workspace } : task.workspace;
  return {
    id: task.id,
    // Encoded: BullMQ refuses a job id with a `:`, which a task id may have.
    key: `${defaults.batchKey}.${encodeURIComponent(task.id)}`,
    prompt: task.prompt,
    workspace:
      "path" in workspace
        ? { path: resolve(defaults.base, workspace.path) }
        : { git: localOrUrl(defaults.base, workspace.git), ...(workspace.ref ? { ref: workspace.ref } : {}) },
    ...(task.distribution ? { distribution: resolve(defaults.base, task.distribution) } : {}),
    settings: task.settings ? [...defaults.settings, task.settings] : defaults.settings,
    flags: defaults.flags,
    budget: { ...defaults.budget, ...task.budget },
  };
}

/**
 * A repository named by a relative path is found from the tasks file's folder; URLs, `host:path` and
 * `<transport>::<address>` stay as they are (git decides which transports it allows).
 */
function localOrUrl(base: string, repository: string): string {
  if (isAbsolute(repository) || /^[a-z][a-z0-9+.-]*:(\/\/|:)/i.test(repository)) return repository;
  if (/^[^/]+@[^/:]+:/.test(repository)) return repository;
  return resolve(base, repository);
}

/** A key naming one batch: its results file on this machine, or nothing (stdout: a new key every run). */
export function batchKeyOf(outFile: string | undefined, host: string): string {
  const seed = outFile === undefined ? randomUUID() : `${host}:${outFile}`;
  return createHash("sha256").update(seed).digest("hex").slice(0, 16);
}
