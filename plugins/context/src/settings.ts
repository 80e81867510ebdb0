/** The context plugin's settings: the caps on project instructions. */
import { z } from "@keel/extensions-api";

export const ContextSettingsSchema = z
  .object({
    maxFileBytes: z
      .number()
      .int()
      .min(1024)
      .default(64 * 1024)
      .describe(
        "Most bytes of one AGENTS.md (or CLAUDE.md) that enter the system prompt; the rest is cut with a notice",
      ),
    maxTotalBytes: z
      .number()
      .int()
      .min(1024)
      .default(128 * 1024)
      .describe("Most bytes of all project instructions together; files past it are cut or left out with a notice"),
  })
  .prefault({});

export type ContextSettings = z.output<typeof ContextSettingsSchema>;
