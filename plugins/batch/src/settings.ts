/** The `batch` section of settings.json: the queue's name, how long a worker holds a job, where clones go. */
import { z } from "@keel/extensions-api";

export const BatchSettingsSchema = z
  .object({
    queue: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,100}$/)
      .default("keel-batch")
      .describe("The BullMQ queue's name: batches and workers naming the same one on the same Redis share jobs."),
    lockSeconds: z
      .number()
      .positive()
      .default(30)
      .describe(
        "How long a worker's hold on a job lasts unless renewed (a live worker renews it at half that): the job " +
          "of a worker that died is given to another one after about this long.",
      ),
    graceSeconds: z
      .number()
      .nonnegative()
      .default(10)
      .describe("How long a task stopped by its budget (or by Ctrl-C) may take to end cleanly before it is killed."),
    workDir: z
      .string()
      .optional()
      .describe("Where git workspaces are cloned, one folder per task and attempt (default: <KEEL_HOME>/batch/work)."),
  })
  .prefault({});

export type BatchSettings = z.output<typeof BatchSettingsSchema>;
