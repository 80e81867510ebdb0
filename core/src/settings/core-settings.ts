/**
 * The kernel's own settings keys. Every other top-level key belongs to a plugin (its `settingsKey`).
 */
import { CONTRIBUTION_KINDS, THINKING_LEVELS, z, type ContributionKind } from "@keel/extensions-api";

export const CoreSettingsSchema = z.object({
  /** Provider id and model id used when no flag picks one. */
  provider: z.string().optional(),
  model: z.string().optional(),
  /** How hard models that reason are asked to think (`--thinking`); unset asks for nothing. */
  thinking: z.enum(THINKING_LEVELS).optional(),
  /** The operations backend to use when several are installed. */
  ops: z.string().optional(),
  tools: z
    .object({
      /** The tools the model is offered, by name; unset offers every registered tool. */
      enabled: z.array(z.string()).optional(),
    })
    .default({}),
  /** The base system prompt; context plugins add to it. */
  systemPrompt: z.string().default(""),
  /** On a name clash, which plugin keeps the plain name, per kind: `{ "tools": { "grep": "@acme/keel-grep" } }`. */
  prefer: z
    .partialRecord(
      z.enum(CONTRIBUTION_KINDS as [ContributionKind, ...ContributionKind[]]),
      z.record(z.string(), z.string()),
    )
    .default({}),
  plugins: z
    .object({
      disabled: z.array(z.string()).default([]),
      /** Plugins keel must not run without (runtime/required-plugins.ts); every layer adds to the list. */
      required: z.array(z.string()).default([]),
      /** Read from the managed layer only (settings/managed.ts); listed so the shape is checked everywhere. */
      allowed: z.array(z.string()).optional(),
      blocked: z.array(z.string()).optional(),
      allowedCatalogs: z.array(z.string()).optional(),
      /**
       * Which plugins run confined, each in its own host process with only the capabilities it declares:
       * `third-party` (every plugin not part of the distribution), `all` (the distribution's own too), `none`.
       */
      confine: z.enum(["third-party", "all", "none"]).default("none"),
      /**
       * Plugins to load where this machine cannot confine them (no bubblewrap, no user namespaces), under Node's
       * permission model alone: their network is not confined. Without this a plugin that needs confinement is refused.
       */
      unconfined: z.array(z.string()).default([]),
      /**
       * Confine every plugin, the distribution's too, and refuse `unconfined` (for a distribution or the managed
       * layer).
       */
      requireConfinement: z.boolean().default(false),
    })
    .default({ disabled: [], required: [], confine: "none", unconfined: [], requireConfinement: false }),
  loop: z
    .object({
      maxSteps: z.number().int().positive().optional(),
      maxMalformedSteps: z.number().int().positive().default(3),
      maxStopContinuations: z.number().int().nonnegative().default(3),
      /** Milliseconds a tool call may run before the loop stops it and tells the model (default 10 minutes). */
      toolTimeoutMs: z.number().int().positive().default(600_000),
      /** Deadlines by tool name, over the tool's own `timeoutMs` and `toolTimeoutMs`. */
      toolTimeouts: z.record(z.string(), z.number().int().positive()).default({}),
    })
    .default({ maxMalformedSteps: 3, maxStopContinuations: 3, toolTimeoutMs: 600_000, toolTimeouts: {} }),
  compaction: z
    .object({ enabled: z.boolean().default(true), reserveTokens: z.number().int().nonnegative().default(16384) })
    .loose()
    .default({ enabled: true, reserveTokens: 16384 }),
  /** Milliseconds a plugin's activate() may take. */
  activationTimeoutMs: z.number().int().positive().default(10_000),
  /**
   * `required`: a project's hooks must guard its runs, so while the folder is not trusted (its hooks do not run)
   * every tool call is refused, saying why, instead of running unguarded. For the managed settings or a
   * distribution (which locks it); `optional` runs tools without the untrusted project's hooks.
   */
  projectHooks: z.enum(["optional", "required"]).default("optional"),
  /** Environment variables set for the session: the commands tools, hooks and MCP servers start see them. */
  env: z.record(z.string(), z.string()).default({}),
});

export type CoreSettings = z.output<typeof CoreSettingsSchema>;

/** Names every problem by key; invalid keys fall back to their defaults. */
export function parseCoreSettings(merged: Record<string, unknown>, warnings: string[]): CoreSettings {
  const result = CoreSettingsSchema.safeParse(merged);
  if (result.success) return result.data;
  const bad = new Set<string>();
  for (const issue of result.error.issues) {
    warnings.push(`Setting "${issue.path.join(".")}" is invalid: ${issue.message}. Using its default.`);
    if (issue.path[0] !== undefined) bad.add(String(issue.path[0]));
  }
  const cleaned = Object.fromEntries(Object.entries(merged).filter(([key]) => !bad.has(key)));
  return CoreSettingsSchema.parse(cleaned);
}

/** Formats zod issues as `key.path: message` for a plugin's settings section. */
export function describeIssues(prefix: string, issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `"${[prefix, ...i.path.map(String)].join(".")}": ${i.message}`).join("; ");
}
