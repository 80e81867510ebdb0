/**
 * "Always allow": adds rules to `permissions.allow` in the user's settings file (`$KEEL_HOME/settings.json`),
 * keeping everything else in it. A file that is not valid JSON is left alone rather than replaced.
 */
import { objectSection, updateUserSettings } from "@keel/extensions-api/user-settings";

export function saveAllowRules(keelHome: string, rules: readonly string[]): void {
  updateUserSettings(keelHome, (settings) => {
    const section = objectSection(settings.permissions);
    const allow = Array.isArray(section.allow) ? section.allow.filter((r): r is string => typeof r === "string") : [];
    settings.permissions = { ...section, allow: [...allow, ...rules.filter((r) => !allow.includes(r))] };
  });
}
