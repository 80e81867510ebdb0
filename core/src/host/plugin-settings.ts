/**
 * A plugin's settings section, validated by the plugin's own schema. An invalid section disables the plugin,
 * unless its definition says `onInvalidSettings: "defaults"`: then the keys at fault are dropped (the schema
 * fills them in) and the plugin runs, with a warning that says how to fix them.
 */
import type { PluginDefinition } from "@keel/extensions-api";
import { describeIssues } from "../settings/core-settings.js";
import { isPlainObject } from "../settings/layers.js";

export type SettingsOutcome = { ok: true; value: unknown } | { ok: false; reason: string };

export function pluginSettings(
  key: string,
  section: unknown,
  definition: PluginDefinition<any>,
  warn: (message: string) => void,
): SettingsOutcome {
  if (!definition.settings) return { ok: true, value: section };
  const parsed = definition.settings.safeParse(section);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = describeIssues(key, parsed.error.issues);
  if (definition.onInvalidSettings === "defaults") {
    const bad = new Set<unknown>(parsed.error.issues.map((i: { path: PropertyKey[] }) => i.path[0]));
    const kept = isPlainObject(section)
      ? Object.fromEntries(Object.entries(section).filter(([k]) => !bad.has(k)))
      : undefined;
    const fallback = [kept, undefined].map((s) => definition.settings!.safeParse(s)).find((p) => p.success);
    if (fallback) {
      warn(
        `invalid settings: ${problems}. Using the defaults for those keys; fix that section of ` +
          `settings.json to choose your own.`,
      );
      return { ok: true, value: fallback.data };
    }
  }
  return {
    ok: false,
    reason: `invalid settings: ${problems}. Fix that section of settings.json; the plugin stays off until then`,
  };
}
