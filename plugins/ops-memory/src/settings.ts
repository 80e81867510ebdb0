/** The `ops-memory` section of settings.json. */
import { z } from "@keel/extensions-api";

export const MemoryOpsSettingsSchema = z
  .object({
    files: z
      .record(z.string(), z.string())
      .default({})
      .describe("Workspace-relative path → text, created when the backend is."),
  })
  .default({ files: {} });
