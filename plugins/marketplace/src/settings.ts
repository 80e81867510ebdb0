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
    verifyCommand: z
      .union([z.string().min(1), z.array(z.string()).min(1)])
      .optional()
      .describe(
        "A check run on every plugin before it is installed or updated (a scanner, a review step): an argv list " +
          "(the staged folder is appended) or a shell command line (the folder is `$1`), run in the staged folder " +
          "with KEEL_VERIFY_DIR, KEEL_VERIFY_NAME and KEEL_VERIFY_VERSION set. A non-zero exit, a crash or a " +
          "timeout refuses the install. Put it in the managed settings so that users cannot remove it.",
      ),
    verifyTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(120_000)
      .describe("How long `verifyCommand` may run before the install is refused."),
  })
  .prefault({});

export type MarketplaceSettings = z.output<typeof MarketplaceSettingsSchema>;
