/**
 * keel's cache folder: compiled plugin sources (jiti), V8 code caches, parsed manifests. Everything in it can
 * be deleted at any time. `KEEL_CACHE_DIR` moves it; otherwise `$XDG_CACHE_HOME/keel` or `~/.cache/keel`.
 */
import { homedir } from "node:os";
import { join } from "node:path";

export function keelCacheDir(): string {
  return process.env.KEEL_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "keel");
}
