/**
 * Where plugins come from: the active distribution's list, the user's plugin folder (`$KEEL_HOME/plugins`),
 * `--plugin <path>`, and the project's `.keel/plugins` (which the host keeps disabled unless the folder is
 * trusted). Discovery only lists folders; nothing is read or run here.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PluginSource } from "@keel/extensions-api";
import { projectPluginFolders } from "../trust/project-plugins.js";

export interface Candidate {
  dir: string;
  source: PluginSource;
  /** Why an installed plugin must not load (it changed since install, or its version is blocked). */
  refused?: { name: string; version: string; reason: string };
}

export interface DiscoverOptions {
  distributionPlugins: string[];
  keelHome: string;
  /** `--plugin` folders; a relative one resolves against the process's current folder, as shells do. */
  cliPlugins: string[];
  /** Only the distribution's own plugins. */
  safeMode: boolean;
  /** The project folder, whose `.keel/plugins` are listed. */
  projectDir?: string;
}

/** Folders directly under `root`, descending one level into `@scope` folders. */
export function pluginFolders(root: string): string[] {
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  // By code unit, not localeCompare: the first localeCompare of a process loads ICU's collation (~7 ms and ~2.4 MB
  // resident on every start with installed plugins), and its order would depend on the user's locale.
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    if (entry.name.startsWith(".")) continue;
    if (entry.name.startsWith("@")) out.push(...pluginFolders(join(root, entry.name)));
    else out.push(join(root, entry.name));
  }
  return out;
}

export function discover(options: DiscoverOptions): Candidate[] {
  const out: Candidate[] = options.distributionPlugins.map((dir) => ({ dir, source: "distribution" as const }));
  if (options.safeMode) return out;
  for (const dir of pluginFolders(join(options.keelHome, "plugins"))) out.push({ dir, source: "user" });
  for (const path of options.cliPlugins) out.push({ dir: resolve(path), source: "cli" });
  if (options.projectDir)
    for (const dir of projectPluginFolders(options.projectDir)) out.push({ dir, source: "project" });
  return out;
}
