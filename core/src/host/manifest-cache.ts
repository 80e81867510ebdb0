/**
 * Parsed manifests kept between runs, keyed by package.json's path, size and mtime, so a start with many
 * installed plugins stats their package.json files instead of reading and validating each. A manifest that
 * fails validation is never cached: its error is reported on every start until it is fixed.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PluginPackage } from "@keel/extensions-api";
import { readManifest, type ManifestResult } from "./manifest.js";

/**
 * Bump when the cached shape changes, which includes any change to the manifest schema (a cached manifest is
 * not parsed again); test/core/manifest-cache.test.ts fails when the schema changed and this did not.
 */
export const FORMAT = 5;

type Entry = { key: string; pkg: PluginPackage };

export class ManifestCache {
  private entries: Record<string, Entry> = {};
  private dirty = false;

  constructor(private readonly file: string) {
    try {
      const raw = JSON.parse(readFileSync(file, "utf8")) as { format?: number; entries?: Record<string, Entry> };
      if (raw.format === FORMAT && raw.entries) this.entries = raw.entries;
    } catch {
      // Missing or unreadable: start empty.
    }
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
    const cached = this.entries[path];
    if (key && cached?.key === key) return { ok: true, pkg: cached.pkg };
    const result = readManifest(dir);
    if (result.ok && key) {
      this.entries[path] = { key, pkg: result.pkg };
      this.dirty = true;
    }
    return result;
  }

  /** Writes the cache if anything changed; a failed write only costs the next start a re-read. */
  save(): void {
    if (!this.dirty) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify({ format: FORMAT, entries: this.entries }));
      renameSync(temp, this.file);
      this.dirty = false;
    } catch {
      // Read-only cache folder.
    }
  }
}
