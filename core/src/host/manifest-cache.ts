/**
 * Parsed manifests kept between runs, keyed by package.json's path, size and mtime, so a start with many
 * installed plugins stats their package.json files instead of reading and validating each. A manifest that
 * fails validation is never cached: its error is reported on every start until it is fixed.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { PluginPackage } from "@keel/extensions-api";
import { CacheFile } from "./cache-file.js";
import { readManifest, type ManifestResult } from "./manifest.js";

/**
 * Bump when the cached shape changes, which includes any change to the manifest schema (a cached manifest is
 * not parsed again); test/core/manifest-cache.test.ts fails when the schema changed and this did not.
 */
export const FORMAT = 10;

type Entry = { key: string; pkg: PluginPackage };

export class ManifestCache {
  private readonly cache: CacheFile<Entry>;

  constructor(file: string) {
    this.cache = new CacheFile(file, FORMAT);
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
    const cached = this.cache.get(path);
    if (key && cached?.key === key) return { ok: true, pkg: cached.pkg };
    const result = readManifest(dir);
    if (result.ok && key) this.cache.set(path, { key, pkg: result.pkg });
    return result;
  }

  /** Writes the cache if anything changed. */
  save(): void {
    this.cache.save();
  }
}
