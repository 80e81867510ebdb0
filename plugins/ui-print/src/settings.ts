/** The `ui-print` section of settings.json. */
import { z } from "@keel/extensions-api";

export const PrintSettingsSchema = z
  .object({
    progress: z
      .enum(["auto", "always", "never"])
      .default("auto")
      .describe("Tool activity on stderr in text mode; `auto`: when stderr is a terminal."),
  })
  .default({ progress: "auto" });
