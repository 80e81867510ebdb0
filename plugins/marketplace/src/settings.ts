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
  })
  .prefault({});

export type MarketplaceSettings = z.output<typeof MarketplaceSettingsSchema>;
