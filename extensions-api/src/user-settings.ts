/**
 * Changing the user's settings file (`$KEEL_HOME/settings.json`) from a plugin: "always allow" in a permission
 * question, `keel mcp add`. Everything else in the file is kept; a file that is not a JSON object is left alone
 * (the change throws, saying so) rather than replaced; the new file is written beside and renamed over, so a
 * crash never leaves half of one.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Reads the user's settings, lets `change` edit the object in place, and writes it back. Returns the file. */
export function updateUserSettings(keelHome: string, change: (settings: Record<string, unknown>) => void): string {
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
      throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it, then try again`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new Error(`${file} does not hold a JSON object; fix it, then try again`);
    settings = parsed as Record<string, unknown>;
  }
  change(settings);
  mkdirSync(keelHome, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temp, file);
  return file;
}

/** `value` when it is a plain object, else a new empty one: for reading a section that may be missing or wrong. */
export function objectSection(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? { ...(value as object) } : {};
}
