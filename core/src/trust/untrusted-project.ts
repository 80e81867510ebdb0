/**
 * What an untrusted project's settings may still set: choices that run no code, reach no host and widen
 * nothing tools may do. Everything else waits for trust; a plugin still sees its own section through
 * `api.untrustedSettings` and may apply the parts that only narrow (the permissions plugin's deny rules).
 * This list is the one place that decides; docs/settings.md documents it.
 */
import { isPlainObject, type SettingsObject } from "../settings/layers.js";

export const UNTRUSTED_PROJECT_ALLOWS: readonly string[] = [
  "provider",
  "model",
  "thinking",
  "loop.maxSteps",
  "loop.maxMalformedSteps",
  "loop.maxStopContinuations",
  "compaction.enabled",
  "compaction.reserveTokens",
  "compaction.strategy",
  "compaction.keepRecentTokens",
  "compaction.byModel",
];

export interface SplitProject {
  /** The allowed keys, applied even when the folder is not trusted. */
  allowed: SettingsObject;
  /** What waits for trust, by name (`providers.openai`, `plugins.disabled`, `ops`). */
  held: string[];
}

/** Splits a project's settings by the allowlist; a key the list names a parent of is looked at key by key. */
export function splitProjectSettings(project: SettingsObject | undefined, prefix = ""): SplitProject {
  const allowed: SettingsObject = {};
  const held: string[] = [];
  for (const [key, value] of Object.entries(project ?? {})) {
    const path = `${prefix}${key}`;
    if (UNTRUSTED_PROJECT_ALLOWS.includes(path)) allowed[key] = value;
    else if (isPlainObject(value) && UNTRUSTED_PROJECT_ALLOWS.some((k) => k.startsWith(`${path}.`))) {
      const inner = splitProjectSettings(value, `${path}.`);
      if (Object.keys(inner.allowed).length > 0) allowed[key] = inner.allowed;
      held.push(...inner.held);
    } else if (isPlainObject(value) && prefix === "" && Object.keys(value).length > 0)
      held.push(...Object.keys(value).map((k) => `${path}.${k}`));
    else held.push(path);
  }
  return { allowed, held };
}
