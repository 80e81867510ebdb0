/**
 * The `marketplace` section of settings.json: where npm packages come from.
 */
import { z } from "@keel/extensions-api";

export const MarketplaceSettingsSchema = z
  .object({
    registry: z
      .url()
      .default("https://registry.npmjs.org/")
      .describe("The npm registry `npm:` sources and catalog entries are fetched from."),
    minReleaseAge: z
      .string()
      .regex(/^\d+(\.\d+)?[smhdw]$/, "an age such as 3d, 12h or 2w")
      .optional()
      .describe(
        "The cooldown: `install` and `update` do not pick a version published less than this long ago (`3d`, " +
          "`12h`, `2w`) unless it is named exactly. npm versions are dated by the registry, catalog versions by " +
          "their `published` date; other sources have no date.",
      ),
  })
  .prefault({});

export type MarketplaceSettings = z.output<typeof MarketplaceSettingsSchema>;
