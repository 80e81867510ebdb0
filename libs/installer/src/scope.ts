/**
 * An install scope: the user's (`$KEEL_HOME`) or a project's (`<project>/.keel`). Each has its plugin folder
 * (what the host discovers), its keel.lock, a staging folder for installs in progress and the previous version
 * of each plugin, kept for `keel update --rollback`. Staging sits beside the plugin folder, on the same file
 * system, so the swap is a rename.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOCK_FILE, readLock, type Lock, type LockEntry } from "@keel/plugin-lock";

export interface Scope {
  kind: "user" | "project";
  /** `$KEEL_HOME`, or the project's `.keel` folder. */
  root: string;
}

export const pluginsDir = (scope: Scope) => join(scope.root, "plugins");
export const pluginDir = (scope: Scope, name: string) => join(scope.root, "plugins", name);
export const stagingDir = (scope: Scope) => join(scope.root, ".staging");
export const previousDir = (scope: Scope, name: string) => join(scope.root, ".previous", name);
/** The lock entry of the previous version, beside its folder. */
export const previousEntryFile = (scope: Scope, name: string) => `${previousDir(scope, name)}.lock.json`;

export function scopeLock(scope: Scope): Lock {
  return readLock(scope.root);
}

/** Writes the scope's lock by write-and-rename, so a reader never sees half a file. */
export function writeLock(scope: Scope, lock: Lock): void {
  mkdirSync(scope.root, { recursive: true });
  const file = join(scope.root, LOCK_FILE);
  const sorted = Object.fromEntries(Object.entries(lock.plugins).sort(([a], [b]) => a.localeCompare(b)));
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...lock, plugins: sorted }, null, 2)}\n`);
  renameSync(temp, file);
}

/** Sets (or, with `undefined`, removes) one plugin's entry. */
export function updateLock(scope: Scope, name: string, entry: LockEntry | undefined): void {
  const lock = scopeLock(scope);
  if (entry) lock.plugins[name] = entry;
  else delete lock.plugins[name];
  writeLock(scope, lock);
}
