/**
 * A project's own plugins, `.keel/plugins/<name>` (and `@scope/<name>`): code from whoever wrote the
 * repository, so they load only once the user trusts the folder, and their files are part of what the trust
 * decision was made for (a changed plugin asks again). Each plugin folder is hashed whole, except the
 * `node_modules` and `.git` inside it: dependencies are the plugin's package.json's to name, and hashing them
 * would make every start read them all.
 */
import type { Hash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pluginFolders } from "../host/discover.js";

/** Where a project keeps its plugins, relative to the project folder. */
export const PROJECT_PLUGINS_DIR = ".keel/plugins";

const SKIPPED = new Set(["node_modules", ".git"]);

/** The project's plugin folders, absolute, in a stable order. */
export function projectPluginFolders(projectDir: string): string[] {
  return pluginFolders(join(projectDir, PROJECT_PLUGINS_DIR));
}

/** Adds every file of each plugin folder (name, size, bytes) to `hash`, in a stable order. */
export function hashPluginFolders(hash: Hash, projectDir: string, folders: readonly string[]): void {
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch (error) {
      hash.update(`${relative(projectDir, dir)}\0unreadable: ${(error as NodeJS.ErrnoException).code}\0`);
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(path);
        continue;
      }
      let content: Buffer;
      try {
        // A link is hashed as what it points to; a dangling one as unreadable.
        content = readFileSync(path);
      } catch (error) {
        content = Buffer.from(`unreadable: ${(error as NodeJS.ErrnoException).code}`);
      }
      hash.update(`${relative(projectDir, path)}\0${content.length}\0`).update(content);
    }
  };
  for (const folder of folders) walk(folder);
}
