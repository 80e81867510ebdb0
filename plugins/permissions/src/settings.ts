/**
 * The `permissions` section of settings.json: the mode and the rule lists. Rules are kept as text here and
 * parsed when the plugin starts, so one mistyped rule is reported by name and the others still apply.
 */
import { z } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";

/** The modes, from the narrowest to the widest (a stricter mode is an earlier one). */
export const MODES = ["ask", "auto", "full"] as const;
export type Mode = (typeof MODES)[number];

/** What is wrong with a `--permission-mode` value, or undefined. */
export function flagModeProblem(value: unknown): string | undefined {
  return MODES.includes(value as Mode)
    ? undefined
    : `--permission-mode must be ${MODES.join(", ")} (got ${JSON.stringify(value)})`;
}

export const PermissionsSettingsSchema = z
  .object({
    mode: z
      .enum(MODES)
      .default("auto")
      .describe("What runs without asking when no rule speaks. `--permission-mode` wins."),
    allow: z
      .array(z.string())
      .default([])
      .describe("Rules that let a call run without asking, e.g. `bash(npm run build *)`, `edit(src/**)`."),
    ask: z
      .array(z.string())
      .default([])
      .describe("Rules that always ask, whatever the mode, e.g. `bash(git commit *)`."),
    deny: z
      .array(z.string())
      .default([])
      .describe("Rules that refuse, in every mode, e.g. `bash(git push*)`, `read(**/.env)`, `write(/etc/**)`."),
  })
  .prefault({});

export type PermissionsSettings = z.output<typeof PermissionsSettingsSchema>;

/**
 * What an untrusted project's section may add: only rules that narrow. A stricter mode narrows too. Built when
 * an untrusted project has a section.
 */
export const UntrustedPermissionsSchema = lazySchema(() =>
  z.object({
    mode: z.enum(MODES).optional(),
    ask: z.array(z.string()).optional(),
    deny: z.array(z.string()).optional(),
  }),
);
