/** The subagents plugin's settings. */
import { z } from "@keel/extensions-api";

export const SubagentsSettingsSchema = z
  .object({
    maxParallel: z
      .number()
      .int()
      .min(1)
      .max(32)
      .default(4)
      .describe("Subagents that may run at once; further task calls of the same reply wait for a free one"),
    maxSteps: z.number().int().min(1).default(50).describe("Requests one subagent may make before it is stopped"),
  })
  .prefault({});

export type SubagentsSettings = z.output<typeof SubagentsSettingsSchema>;
