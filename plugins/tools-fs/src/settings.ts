/** The `tools-fs` section of settings.json. */
import { z } from "@keel/extensions-api";

export const ToolsFsSettingsSchema = z
  .object({
    ripgrep: z
      .boolean()
      .default(true)
      .describe("Use the bundled ripgrep for find and grep when the backend is local; `false` walks the files."),
  })
  .default({ ripgrep: true });
