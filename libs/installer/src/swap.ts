/**
 * Putting a staged plugin in place, and back. The current version moves to `.previous/<name>` and the staged
 * one into `plugins/<name>` by two renames; if the second fails the first is undone, so the folder the host
 * loads always holds a complete version. The lock is written last, and a failure there swaps back too.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { LockEntrySchema, type LockEntry } from "@keel/plugin-lock";
import { pluginDir, previousDir, previousEntryFile, scopeLock, updateLock, type Scope } from "./scope.ts";

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Moves `staged` to the plugin's folder and records `entry`; the version it replaces becomes the previous one. */
export function swapIn(scope: Scope, name: string, staged: string, entry: LockEntry): void {
  const target = pluginDir(scope, name);
  const previous = previousDir(scope, name);
  const before = scopeLock(scope).plugins[name];
  mkdirSync(dirname(target), { recursive: true });
  mkdirSync(dirname(previous), { recursive: true });
  const hadCurrent = exists(target);
  if (hadCurrent) {
    rmSync(previous, { recursive: true, force: true });
    rmSync(previousEntryFile(scope, name), { force: true });
    renameSync(target, previous);
  }
  try {
    renameSync(staged, target);
    updateLock(scope, name, entry);
  } catch (error) {
    if (exists(target) && hadCurrent) rmSync(target, { recursive: true, force: true });
    if (hadCurrent) renameSync(previous, target);
    throw error;
  }
  if (hadCurrent && before) writeFileSync(previousEntryFile(scope, name), JSON.stringify(before));
}

/** Moves the installed version aside (kept for rollback) and drops its lock entry. */
export function moveOut(scope: Scope, name: string): boolean {
  const target = pluginDir(scope, name);
  if (!exists(target)) return false;
  const previous = previousDir(scope, name);
  const before = scopeLock(scope).plugins[name];
  mkdirSync(dirname(previous), { recursive: true });
  rmSync(previous, { recursive: true, force: true });
  renameSync(target, previous);
  if (before) writeFileSync(previousEntryFile(scope, name), JSON.stringify(before));
  else rmSync(previousEntryFile(scope, name), { force: true });
  updateLock(scope, name, undefined);
  return true;
}

/** The previous version's lock entry, or undefined when there is none to go back to. */
export function previousEntry(scope: Scope, name: string): LockEntry | undefined {
  if (!existsSync(previousDir(scope, name))) return undefined;
  try {
    return LockEntrySchema.parse(JSON.parse(readFileSync(previousEntryFile(scope, name), "utf8")));
  } catch {
    return undefined;
  }
}

/** Exchanges the installed and the previous version (`keel update --rollback`); returns the entry now in place. */
export function rollBack(scope: Scope, name: string): LockEntry {
  const entry = previousEntry(scope, name);
  if (!entry) throw new Error(`${name} has no previous version to go back to in ${scope.root}`);
  const previous = previousDir(scope, name);
  const parked = `${previous}.rollback-${process.pid}`;
  renameSync(previous, parked);
  try {
    swapIn(scope, name, parked, entry);
  } catch (error) {
    if (exists(parked)) renameSync(parked, previous);
    throw error;
  }
  return entry;
}
