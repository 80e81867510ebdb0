/**
 * "Always allow": adds rules to `permissions.allow` in the user's settings file (`$KEEL_HOME/settings.json`),
 * keeping everything else in it. A file that is not valid JSON is left alone rather than replaced.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function saveAllowRules(keelHome: string, rules: readonly string[]): void {
  const file = join(keelHome, "settings.json");
  let settings: Record<string, unknown> = {};
  let text: string | undefined;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new Error(`${file} could not be read (${(error as Error).message})`);
  }
  if (text !== undefined && text.trim() !== "") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch (error) {
      throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it, then allow again`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error(`${file} does not hold a JSON object; fix it, then allow again`);
    settings = parsed as Record<string, unknown>;
  }
  const section =
    typeof settings.permissions === "object" && settings.permissions !== null && !Array.isArray(settings.permissions)
      ? (settings.permissions as Record<string, unknown>)
      : {};
  const allow = Array.isArray(section.allow) ? section.allow.filter((r): r is string => typeof r === "string") : [];
  settings.permissions = { ...section, allow: [...allow, ...rules.filter((r) => !allow.includes(r))] };
  mkdirSync(keelHome, { recursive: true });
  // Written beside and renamed over, so a crash never leaves half a settings file.
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temp, file);
}
