/**
 * The policy a session runs with, from its sources: the merged settings (distribution, user, trusted project,
 * `--settings`, managed), the `--permission-mode` flag, and what an untrusted project wrote, of which only the
 * narrowing parts count (its deny and ask rules, and a mode stricter than the one in force).
 */
import type { Policy } from "./decide.ts";
import { parseRules, type Rule } from "./rules.ts";
import { flagModeProblem, MODES, UntrustedPermissionsSchema, type Mode, type PermissionsSettings } from "./settings.ts";

export interface PolicySources {
  settings: PermissionsSettings;
  /** `--permission-mode`, unparsed. */
  flagMode?: unknown;
  /** The section as an untrusted project wrote it. */
  untrusted?: unknown;
  /** Deny rules that installed packages bring (a Gemini CLI extension's `excludeTools`), by plugin. */
  plugins?: readonly { name: string; deny: readonly string[] }[];
}

/** The policy, and problems to report (rules that do not parse, a bad flag, an unreadable project section). */
export function buildPolicy(sources: PolicySources): { policy: Policy; problems: string[] } {
  const problems: string[] = [];
  let mode: Mode = sources.settings.mode;
  if (sources.flagMode !== undefined) {
    const problem = flagModeProblem(sources.flagMode);
    // The command line refuses a bad value before anything runs; given another way, the strictest mode applies.
    if (problem) problems.push(`${problem}; using ask`);
    mode = problem ? "ask" : (sources.flagMode as Mode);
  }
  const rules = (list: readonly string[], key: string): Rule[] => {
    const parsed = parseRules(list);
    for (const problem of parsed.problems) problems.push(`permissions.${key}: ${problem}; that rule was ignored`);
    return parsed.rules;
  };
  const deny = rules(sources.settings.deny, "deny");
  const ask = rules(sources.settings.ask, "ask");
  const allow = rules(sources.settings.allow, "allow");
  for (const plugin of sources.plugins ?? []) deny.push(...rules(plugin.deny, `deny (plugin ${plugin.name})`));
  if (sources.untrusted !== undefined) {
    const project = UntrustedPermissionsSchema.safeParse(sources.untrusted);
    if (!project.success)
      problems.push(
        `the untrusted project's permissions section is not valid ` +
          `(${project.error.issues[0]?.message}); none of it applies`,
      );
    else {
      deny.push(...rules(project.data.deny ?? [], "deny (untrusted project)"));
      ask.push(...rules(project.data.ask ?? [], "ask (untrusted project)"));
      if (project.data.mode && MODES.indexOf(project.data.mode) < MODES.indexOf(mode)) mode = project.data.mode;
    }
  }
  return { policy: { mode, deny, ask, allow, session: [] }, problems };
}
