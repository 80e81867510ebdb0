/** The `compaction-summary` section of settings.json. */
import { z } from "@keel/extensions-api";

export const CompactionSummarySettingsSchema = z
  .object({
    model: z
      .string()
      .regex(/^[^/]+\/.+$/, 'expected "provider/model"')
      .optional()
      .describe(
        'The model that writes summaries, as "provider/model" (e.g. a cheaper one); default the session\'s model.',
      ),
    maxTokens: z.number().int().positive().default(4_096).describe("The longest summary, in output tokens."),
  })
  .default({ maxTokens: 4_096 });

export type CompactionSummarySettings = z.output<typeof CompactionSummarySettingsSchema>;
