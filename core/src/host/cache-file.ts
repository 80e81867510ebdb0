/**
 * A JSON file of entries kept between runs in keel's cache folder (parsed manifests, verified plugin trees),
 * each keyed by the path it describes: read once, written once by write-and-rename when something changed. A
 * missing, unreadable or older-format file starts empty; a failed write only costs the next start the work the
 * cache saves. Every start reads the whole file, so a write drops the entries whose path is gone: plugin folders
 * of removed worktrees and temporary folders (a test suite leaves thousands) would otherwise make each start
 * parse them again (1.1 MB and 1809 entries, 1410 of them under /tmp, were found on the development machine).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export class CacheFile<Entry> {
  private entries: Record<string, Entry> = {};
  private dirty = false;

  constructor(
    private readonly file: string,
    private readonly format: number,
  ) {
    try {
      const raw = JSON.parse(readFileSync(file, "utf8")) as { format?: number; entries?: Record<string, Entry> };
      if (raw.format === format && raw.entries) this.entries = raw.entries;
    } catch {
      // Missing or unreadable: start empty.
    }
  }

  get(key: string): Entry | undefined {
    return this.entries[key];
  }

  set(key: string, entry: Entry): void {
    this.entries[key] = entry;
    this.dirty = true;
  }

  save(): void {
    if (!this.dirty) return;
    for (const key of Object.keys(this.entries)) if (!existsSync(key)) delete this.entries[key];
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify({ format: this.format, entries: this.entries }));
      renameSync(temp, this.file);
      this.dirty = false;
    } catch {
      // Read-only cache folder.
    }
  }
}
