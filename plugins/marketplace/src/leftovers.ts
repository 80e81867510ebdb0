/**
 * What a plugin leaves outside its folder, which `keel remove` offers to delete item by item (or all, `--yes`):
 * its section of the scope's settings.json (and its name in `plugins.disabled`), and its data folder
 * (`$KEEL_HOME/plugin-data/<settings key>`, where a plugin keeps what it writes).
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { settingsKeyOf, type CliContext } from "@keel/extensions-api";
import type { Scope } from "@keel/installer";

type Json = Record<string, unknown>;

/** The plugin's settings key, from its manifest while it is still there (else the key its name derives). */
export function settingsKeyIn(dir: string, name: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { keel?: { settingsKey?: string } };
    return settingsKeyOf({ name, keel: { settingsKey: pkg.keel?.settingsKey } });
  } catch {
    return settingsKeyOf({ name, keel: {} });
  }
}

function readSettings(file: string): Json | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, "")) as Json;
  } catch {
    return undefined;
  }
}

/** Deletes, after asking (`yes` agrees), the plugin's settings section and data folder; returns what went. */
export async function removeLeftovers(
  scope: Scope,
  name: string,
  key: string,
  context: CliContext,
  yes: boolean,
): Promise<string[]> {
  const removed: string[] = [];
  const ask = (question: string) => (yes ? Promise.resolve(true) : context.confirm(question));
  const file = join(scope.root, "settings.json");
  const settings = readSettings(file);
  if (settings) {
    const plugins = settings.plugins as Json | undefined;
    const disabled = Array.isArray(plugins?.disabled) ? (plugins.disabled as unknown[]) : [];
    // Its name in plugins.disabled means nothing once it is gone; a reinstall should not start disabled.
    if (disabled.includes(name)) plugins!.disabled = disabled.filter((n) => n !== name);
    const section = key in settings && (await ask(`Delete its settings (the "${key}" section of ${file})?`));
    if (section) delete settings[key];
    if (section || disabled.includes(name)) {
      writeFileSync(`${file}.tmp`, `${JSON.stringify(settings, null, 2)}\n`);
      renameSync(`${file}.tmp`, file);
      if (section) removed.push(`${file}: "${key}"`);
    }
  }
  const data = join(context.keelHome, "plugin-data", key);
  if (existsSync(data) && (await ask(`Delete its data folder ${data}?`))) {
    rmSync(data, { recursive: true, force: true });
    removed.push(data);
  }
  return removed;
}
