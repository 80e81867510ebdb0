/**
 * `plugins.disabled` in a scope's settings.json (`$KEEL_HOME/settings.json`, `.keel/settings.json`): what
 * `keel disable` and `keel enable` change, by write-and-rename so a reader never sees half a file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Scope } from "@keel/installer";

type Json = Record<string, unknown>;

export function setDisabled(scope: Scope, name: string, disabled: boolean): boolean {
  const file = join(scope.root, "settings.json");
  let settings: Json = {};
  try {
    settings = JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, "")) as Json;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new Error(`cannot change ${file}: ${(error as Error).message}; fix the file first`);
  }
  const plugins = (typeof settings.plugins === "object" && settings.plugins !== null ? settings.plugins : {}) as Json;
  const list = Array.isArray(plugins.disabled) ? (plugins.disabled as string[]) : [];
  const has = list.includes(name);
  if (has === disabled) return false;
  plugins.disabled = disabled ? [...list, name] : list.filter((n) => n !== name);
  settings.plugins = plugins;
  mkdirSync(scope.root, { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return true;
}
