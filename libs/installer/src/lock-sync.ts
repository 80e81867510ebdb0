/**
 * `keel install` with no source: the scope gets exactly what its keel.lock lists. A plugin whose folder already
 * matches its entry is left alone; the others are fetched at the recorded version, tarball sha512 and
 * dependency tree, and must hash to the recorded tree, or nothing of them is changed.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { treeHash, type LockEntry } from "@keel/plugin-lock";
import { installPlugin, type InstallOptions } from "./install.ts";
import { pluginDir, scopeLock } from "./scope.ts";
import { parseSource, type Source } from "./source.ts";

/** The source of exactly the version an entry records. */
export function pinnedSource(entry: LockEntry, cwd: string): Source {
  let source = parseSource(entry.source, cwd);
  // A catalog name is not resolved again: the lock pins what it resolved to.
  if (source.kind === "catalog") {
    if (!entry.resolved) throw new Error(`keel.lock's entry for ${entry.source} records no resolved source`);
    source = parseSource(entry.resolved.startsWith("git+") ? `git:${entry.resolved.slice(4)}` : entry.resolved, cwd);
  }
  if (source.kind === "npm") return { ...source, range: entry.version };
  if (source.kind === "git" && entry.commit) return { ...source, ref: entry.commit };
  return source;
}

export interface SyncResult {
  name: string;
  outcome: "kept" | "installed" | "declined";
}

export async function installFromLock(options: Omit<InstallOptions, "integrity">): Promise<SyncResult[]> {
  const lock = scopeLock(options.scope);
  const results: SyncResult[] = [];
  for (const [name, entry] of Object.entries(lock.plugins)) {
    const dir = pluginDir(options.scope, name);
    if (existsSync(dir) && (entry.linked || (entry.tree && treeHash(dir) === entry.tree))) {
      results.push({ name, outcome: "kept" });
      continue;
    }
    // A project's lock records its linked folders relative to the project (link.ts).
    const base = options.scope.kind === "project" ? dirname(options.scope.root) : options.cwd;
    const done = await installPlugin(pinnedSource(entry, base), {
      ...options,
      integrity: entry.integrity,
      catalog: entry.catalog,
      locked: entry.packages,
      expectTree: entry.tree,
      expectName: name,
      entryManifest: entry.entryManifest,
      // Git and URL sources in a lock were opted into when they were first installed.
      allowGit: true,
      allowRemote: true,
    });
    results.push({ name, outcome: done.outcome === "declined" ? "declined" : "installed" });
  }
  return results;
}
