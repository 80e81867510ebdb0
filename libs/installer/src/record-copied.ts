/**
 * Recording a plugin folder that was copied into a scope rather than installed (a built distribution's own
 * plugins, `keel` and `path:` sources): its tree is hashed into the scope's keel.lock like an installed one,
 * so the host refuses it at load once a byte of it changes.
 */
import { declaredNames, readManifest, treeHash, type LockEntry } from "@keel/plugin-lock";
import { RefusedError } from "./check.ts";
import { pluginDir, updateLock, type Scope } from "./scope.ts";

/** Hashes the plugin already in `pluginDir(scope, name)` and records it with `source`; returns the entry. */
export function recordCopied(scope: Scope, name: string, source: string, now = new Date()): LockEntry {
  const dir = pluginDir(scope, name);
  const read = readManifest(dir);
  if (!read.ok) throw new RefusedError(read.error);
  const entry: LockEntry = {
    source,
    version: read.pkg.version,
    tree: treeHash(dir),
    capabilities: [...read.pkg.keel.capabilities],
    hooks: declaredNames(read.pkg.keel).hooks,
    installedAt: now.toISOString(),
  };
  updateLock(scope, name, entry);
  return entry;
}
