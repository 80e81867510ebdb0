/** The `large-results` section of settings.json. */
import { z } from "@keel/extensions-api";

export const LargeResultsSettingsSchema = z
  .object({
    thresholdBytes: z
      .number()
      .int()
      .positive()
      .default(16 * 1024)
      .describe("Results whose text is larger than this many UTF-8 bytes are stored."),
    previewLines: z
      .number()
      .int()
      .positive()
      .default(40)
      .describe("The preview shows at most this many lines from each end."),
    previewBytes: z
      .number()
      .int()
      .positive()
      .default(3 * 1024)
      .describe("…and at most this many bytes from each end."),
  })
  .prefault({});

export type LargeResultsSettings = z.output<typeof LargeResultsSettingsSchema>;
