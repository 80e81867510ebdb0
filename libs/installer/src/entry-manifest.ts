/**
 * A Claude Code catalog entry that declares components itself. With `strict: false` the entry is the plugin's
 * whole manifest: the installer writes it as `.claude-plugin/plugin.json` in the staged folder, where the host's
 * format adapter reads it like any plugin's (replacing one the folder ships, as Claude Code does). Otherwise the
 * entry's component fields are added to the plugin's own. Written before the tree is hashed, so the lock covers it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RefusedError } from "./check.ts";

export interface EntryManifest {
  fields: Record<string, unknown>;
  strict: boolean;
}

const FILE = ".claude-plugin/plugin.json";

/** A field's paths as a list (Claude Code takes one path or several). */
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

export function writeEntryManifest(dir: string, name: string, version: string | undefined, entry: EntryManifest): void {
  const file = join(dir, FILE);
  let own: Record<string, unknown> = {};
  try {
    own = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    // No manifest of its own (what strict: false is for), or one that is not JSON: the entry's stands alone.
  }
  const merged: Record<string, unknown> = entry.strict ? { ...own } : { name, ...(version && { version }) };
  if (!merged.name) merged.name = name;
  for (const [key, value] of Object.entries(entry.fields)) {
    const mine = merged[key];
    const objects = typeof value === "object" && !Array.isArray(value) && value !== null;
    if (!entry.strict || mine === undefined) merged[key] = value;
    else if (objects && typeof mine === "object" && !Array.isArray(mine)) merged[key] = { ...mine, ...value };
    else merged[key] = [...list(mine), ...list(value)];
  }
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
}

/** A linked folder is the author's own: keel writes nothing into it. */
export function refuseLinked(name: string, path: string): never {
  throw new RefusedError(
    `${name}: its catalog entry declares the plugin's components itself, which keel writes into the installed ` +
      `folder; ${path} is a folder keel would link rather than copy. Add the catalog from its git repository ` +
      "(`keel market add git:<url> --allow-git`) to install it.",
  );
}
