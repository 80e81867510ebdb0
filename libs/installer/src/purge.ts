/**
 * What `keel remove` takes away from a scope so that nothing of the plugin stays behind: its folder, the
 * previous version kept for rollback (and its entry), its lock entry, and its tarball in the npm cache (the
 * content and every index entry pointing at it, and the registry's document for its name). Its settings
 * section and data folder are the caller's to ask about.
 */
import { existsSync, lstatSync, rmSync } from "node:fs";
import { pluginDir, previousDir, previousEntryFile, scopeLock, updateLock, type Scope } from "./scope.ts";

const there = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** Deletes the plugin from `scope`; returns what was deleted (empty when it was not installed there). */
export async function purgePlugin(scope: Scope, name: string, npmCache: string): Promise<string[]> {
  const entry = scopeLock(scope).plugins[name];
  const removed: string[] = [];
  for (const path of [pluginDir(scope, name), previousDir(scope, name), previousEntryFile(scope, name)])
    if (there(path)) {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    }
  if (entry) {
    updateLock(scope, name, undefined);
    removed.push(`${scope.root}/keel.lock: ${name}`);
  }
  if (existsSync(npmCache)) removed.push(...(await purgeNpmCache(npmCache, name, entry?.integrity)));
  return removed;
}

/** The plugin's tarball and its packument (the registry's document for the name) in pacote's cache. */
async function purgeNpmCache(cache: string, name: string, integrity?: string): Promise<string[]> {
  const { default: cacache } = await import("cacache");
  const packument = `/${name.replace("/", "%2f")}`;
  const removed: string[] = [];
  for (const [key, cached] of Object.entries(await cacache.ls(cache))) {
    // The tarballs of every version (the one kept for rollback too) are under the packument's URL.
    if (cached.integrity !== integrity && !key.endsWith(packument) && !key.includes(`${packument}/-/`)) continue;
    await cacache.rm.entry(cache, key, { removeFully: true });
    if (await cacache.rm.content(cache, cached.integrity)) removed.push(`${cache}: ${key}`);
  }
  // Older copies of a packument are content no index entry points at any more: cacache's own check deletes them.
  if (removed.length > 0) await cacache.verify(cache);
  return removed;
}
