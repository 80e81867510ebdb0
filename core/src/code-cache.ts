/**
 * Loading a CommonJS file with a V8 code cache. Node 20 has no module compile cache, and keel's large files —
 * the bundled CLI, jiti, plugins' `.cjs` entries — would otherwise be compiled on every start. The cache lives
 * under `~/.cache/keel/v8`, one file per source path and set of Node flags, keyed by Node version and what names
 * the source's text (`textKey`): V8 itself only checks the source's length, so an edited file of the same size (or
 * a rewrite within the file system's timestamp granularity) must never meet the cache of its old text; and V8
 * rejects a cache made under other flags, so `keel` (whose shebang sets one) and `node bin/keel.cjs` keep a cache
 * each instead of rewriting one on every switch. A cache V8 rejects is rewritten, one that cannot be written is
 * not used. `KEEL_NO_CODE_CACHE=1` turns it off.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { keelCacheDir } from "./cache-dir.js";

export interface CachedModule {
  exports: unknown;
  /** Whether V8 ran it from a cache it accepted. */
  fromCache: boolean;
  /**
   * Writes the cache if it was missing or rejected; call once the code has run, so lazily compiled functions are in it
   * too.
   */
  saveCache(): void;
}

export interface CodeCacheOptions {
  /** The source, when the caller has read it already. */
  source?: string;
  /** The `require` the file's code is given; Node's own for that file by default. */
  require?: NodeJS.Require;
  /** The clock `textKey` compares the file's last change with (`Date.now` by default). */
  now?: () => number;
}

/**
 * How long after its last change a file's status alone names its text. Timestamps move in steps of the file
 * system's granularity (a few ms on ext4, 1 s on ext3 and HFS+, 2 s on FAT), so two writes of one size within a
 * step look alike; a file changed more recently than this is named by a hash of its text.
 */
export const SETTLED_MS = 3000;

/**
 * What names `source`, the text of `file`, without reading it through a hash when that is safe: the file's
 * device, inode, size, mtime and ctime. The kernel sets ctime on every change, to the current time, and nothing
 * sets it back (`utimes` sets atime and mtime only), so a later text has a later ctime unless it was written
 * within a timestamp step of the one before: a file changed in the last `SETTLED_MS` (or whose status does not
 * match the text read) is named by a hash of its text (`shortHash`: not node:crypto, whose first load costs a
 * start ~5 ms, which a run right after a build would pay; an accidental collision of two same-size texts is all
 * it must rule out). Hashing the CLI's 0.7 MB and the plugins' entries on every start took ~1.5 ms, and loading
 * node:crypto for it ~5 ms more (~20 ms as the first module to need Node's streams).
 */
function textKey(file: string, source: string, now: number): string {
  try {
    const stat = statSync(file, { bigint: true });
    if (now - Number(stat.ctimeMs) > SETTLED_MS && Number(stat.size) === Buffer.byteLength(source))
      return `s${[stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs].map((n) => n.toString(36)).join(".")}`;
  } catch {
    // Not a file keel can stat: the text names itself.
  }
  return `h${shortHash(source)}`;
}

/**
 * 64 bits of `text` (two 32-bit FNV-1a lanes, the second with MurmurHash's multiplier so the two do not move
 * together): names a path and flags, where a collision only costs a
 * recompile, and a recently changed text, where only an accidental collision of two same-size texts is possible.
 */
function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
  }
  return `${(a >>> 0).toString(16).padStart(8, "0")}${(b >>> 0).toString(16).padStart(8, "0")}`;
}

/** Requires `file` (CommonJS) through the code cache, and registers it so later `require`s get the same module. */
export function requireWithCodeCache(file: string, options: CodeCacheOptions = {}): CachedModule {
  const source = options.source ?? readFileSync(file, "utf8");
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join("\0");
  const stem = `${basename(file).replace(/\W/g, "_")}-${shortHash(`${file}\0${flags}`)}`;
  const key = process.env.KEEL_NO_CODE_CACHE ? undefined : textKey(file, source, (options.now ?? Date.now)());
  const cache = key && join(keelCacheDir(), "v8", `${stem}-${process.version}-${process.arch}-${key}.bin`);
  let cachedData: Buffer | undefined;
  try {
    if (cache) cachedData = readFileSync(cache);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  // Only whether there was one matters from here: the buffer (~0.7 MB for the CLI) is not kept for the run.
  const hadCache = cachedData !== undefined;
  cachedData = undefined;
  const module = new Module(file) as Module & { filename: string; loaded: boolean; paths: string[] };
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const require = options.require ?? createRequire(file);
  (require.cache as Record<string, unknown>)[file] = module;
  try {
    script.runInThisContext()(module.exports, require, module, file, dirname(file));
  } catch (error) {
    // As Node does: a module that threw is not left registered half-initialised.
    delete (require.cache as Record<string, unknown>)[file];
    throw error;
  }
  module.loaded = true;
  return {
    exports: module.exports,
    fromCache: hadCache && !script.cachedDataRejected,
    saveCache() {
      if (cache && (!hadCache || script.cachedDataRejected)) writeCache(cache, stem, script.createCachedData());
    },
  };
}

/** Writes atomically and drops this file's caches of other builds; failure only means the next start compiles. */
function writeCache(file: string, stem: string, data: Buffer): void {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, data);
    renameSync(temp, file);
    for (const name of readdirSync(dir))
      if (name.startsWith(`${stem}-`) && join(dir, name) !== file && !name.endsWith(".tmp"))
        rmSync(join(dir, name), { force: true });
  } catch {
    // A read-only home or a full disk: run without the cache.
  }
}
