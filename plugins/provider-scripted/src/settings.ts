/** The `provider-scripted` section of settings.json. */
import { z } from "@keel/extensions-api";

export const ScriptedSettingsSchema = z
  .object({
    script: z
      .union([z.string(), z.array(z.unknown())])
      .optional()
      .describe(
        "A JSON file of turns (relative to the workspace), or the turns inline; the turn format is `ScriptTurnSchema`.",
      ),
  })
  .default({});
