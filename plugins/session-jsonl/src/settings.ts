/** The `session-jsonl` section of settings.json. */
import { z } from "@keel/extensions-api";

export const SessionSettingsSchema = z
  .object({
    lockStaleMs: z
      .number()
      .int()
      .min(2_000)
      .default(10_000)
      .describe("A write lock not refreshed for this long (a crashed keel on another machine) is taken over."),
    fsync: z.boolean().default(false).describe("Flush each append to disk (survives power loss; slower)."),
  })
  .default({ lockStaleMs: 10_000, fsync: false });
