/**
 * Which plugins may load: the settings' `plugins.disabled`, the managed layer's `allowed` and `blocked`, and a
 * project's own plugins only once the folder is trusted. (Required plugins are checked after activation, in
 * runtime/required-plugins.ts.)
 */
import type { PluginRecord } from "./plugin-record.js";

/** Which plugins may load, from settings (`plugins.disabled`) and the managed layer (`allowed`, `blocked`). */
export interface PluginPolicy {
  disabled: readonly string[];
  blocked: readonly string[];
  /** When set, only these load from outside the distribution. */
  allowed?: readonly string[];
  /** Where the managed layer is, for messages. */
  managedFile: string;
  /** Whether the project folder is trusted; its `.keel/plugins` load only then (never before it is decided). */
  projectTrusted: boolean;
}

/** The hook a plugin taps to decide project trust; such plugins activate before the project's settings apply. */
const TRUST_HOOK = "project_trust";

/** Why `policy` keeps a plugin from loading, or undefined when it may load. */
export function policyBars(r: PluginRecord, policy: PluginPolicy): string | undefined {
  if (r.source === "project" && !policy.projectTrusted)
    return "the project folder is not trusted (keel trust, or --trust for one run)";
  if (policy.blocked.includes(r.name))
    return `blocked by the managed settings (plugins.blocked in ${policy.managedFile})`;
  if (policy.allowed && r.source !== "distribution" && !policy.allowed.includes(r.name))
    return `not in plugins.allowed of the managed settings (${policy.managedFile})`;
  if (policy.disabled.includes(r.name)) return "disabled in settings (plugins.disabled)";
  return undefined;
}

/**
 * Whether the plugin decides project trust and `policy` lets it: it then activates before the project's settings
 * are known. A plugin the project could disable must not decide whether the project is trusted.
 */
export function decidesTrust(r: PluginRecord, policy: PluginPolicy): boolean {
  return r.state === "lazy" && r.manifest!.contributes.hooks.includes(TRUST_HOOK) && !policyBars(r, policy);
}
