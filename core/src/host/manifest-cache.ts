/**
 * Parsed manifests kept between runs (`manifests/` in keel's cache folder), keyed by the plugin's folder and its
 * package.json's size and mtime, so a start with many installed plugins stats their package.json files instead
 * of reading and validating each. A manifest that fails validation is never cached: its error is reported on
 * every start until it is fixed.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { PluginPackage } from "@keel/extensions-api";
import { CacheShards, readManifest, type ManifestResult } from "@keel/plugin-lock";

/**
 * Bump when the cached shape changes, which includes any change to the manifest schema (a cached manifest is
 * not parsed again); test/core/manifest-cache.test.ts fails when the schema changed and this did not.
 */
export const FORMAT = 13;

type Entry = { key: string; pkg: PluginPackage };

export class ManifestCache {
  private readonly cache: CacheShards<Entry>;

  /** `folder`: where the cache's files go (`keelCacheDir()/manifests`). */
  constructor(folder: string) {
    this.cache = new CacheShards(folder, FORMAT);
  }

  read(dir: string): ManifestResult {
    const path = join(dir, "package.json");
    let key: string | undefined;
    try {
      const stat = statSync(path);
      key = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      key = undefined;
    }
    const cached = this.cache.get(dir);
    if (key && cached?.key === key) return { ok: true, pkg: cached.pkg };
    const result = readManifest(dir);
    // Another format's package is read from its own files, which this key does not cover: read it each time.
    if (result.ok && key && !result.format) this.cache.set(dir, { key, pkg: result.pkg });
    return result;
  }

  /** Writes the cache if anything changed. */
  save(): void {
    this.cache.save();
  }
}
