/**
 * JSON entries kept between runs in keel's cache folder (parsed manifests, verified plugin trees), each keyed by
 * the plugin folder it describes, in one small file per folder of plugin folders (`…/plugins/a` and
 * `…/plugins/b` share the file of `…/plugins`): a start reads only the files of the folders it looks at, so
 * neither its reads nor its parsing grow with every folder keel has ever seen (a single file read whole on every
 * start had grown to 2 MB on the development machine: test suites leave thousands of temporary folders). A file
 * is read on the first look into its folder and written once, by write-and-rename, when something in it changed;
 * a write drops the entries whose folder is gone, and the files of folders that are gone altogether. A missing,
 * unreadable or older-format file starts empty; a failed write only costs the next start the work it saves.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";

interface Shard<Entry> {
  entries: Record<string, Entry>;
  dirty: boolean;
}

/** File names within the 255 bytes a name may have: the folder itself when it fits, a digest of it otherwise. */
const LONGEST_NAME = 200;

export class CacheShards<Entry> {
  private readonly shards = new Map<string, Shard<Entry>>();

  /** `folder`: where the files go (one per folder of plugin folders); `format`: bump when `Entry` changes. */
  constructor(
    private readonly folder: string,
    private readonly format: number,
  ) {}

  get(dir: string): Entry | undefined {
    return this.shard(dir).entries[dir];
  }

  set(dir: string, entry: Entry): void {
    const shard = this.shard(dir);
    shard.entries[dir] = entry;
    shard.dirty = true;
  }

  /** Writes the files whose entries changed. */
  save(): void {
    const dirty = [...this.shards].filter(([, shard]) => shard.dirty);
    if (dirty.length === 0) return;
    try {
      mkdirSync(this.folder, { recursive: true });
      for (const [parent, shard] of dirty) {
        for (const dir of Object.keys(shard.entries)) if (!existsSync(dir)) delete shard.entries[dir];
        const file = this.fileOf(parent);
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, JSON.stringify({ format: this.format, entries: shard.entries }));
        renameSync(temp, file);
        shard.dirty = false;
      }
      this.dropGoneFolders();
    } catch {
      // Read-only cache folder.
    }
  }

  private shard(dir: string): Shard<Entry> {
    const parent = dirname(dir);
    let shard = this.shards.get(parent);
    if (!shard) {
      shard = { entries: {}, dirty: false };
      try {
        const raw = JSON.parse(readFileSync(this.fileOf(parent), "utf8")) as {
          format?: number;
          entries?: Record<string, Entry>;
        };
        if (raw.format === this.format && raw.entries) shard.entries = raw.entries;
      } catch {
        // Missing or unreadable: start empty.
      }
      this.shards.set(parent, shard);
    }
    return shard;
  }

  private fileOf(parent: string): string {
    const name = encodeURIComponent(parent);
    return join(
      this.folder,
      name.length <= LONGEST_NAME ? `${name}.json` : `#${createHash("sha256").update(parent).digest("hex")}.json`,
    );
  }

  /**
   * Only when something was written (a start that found everything cached writes nothing): a listing of names
   * and a stat of each named folder, so a cache that saw thousands of temporary folders does not keep them.
   * Files named by digest cannot be mapped back and are left; they are never read unless their folder is.
   */
  private dropGoneFolders(): void {
    for (const name of readdirSync(this.folder)) {
      if (!name.endsWith(".json") || name.startsWith("#")) continue;
      const parent = decodeURIComponent(name.slice(0, -".json".length));
      if (!existsSync(parent)) rmSync(join(this.folder, name), { force: true });
    }
  }
}
