/**
 * Loading a CommonJS file with a V8 code cache. Node 20 has no module compile cache, and keel's large files —
 * the bundled CLI, jiti, plugins' `.cjs` entries — would otherwise be compiled on every start. The cache lives
 * under `~/.cache/keel/v8`, one file per source path and set of Node flags, keyed by Node version and a hash of the
 * source: V8 itself only checks the source's length, so an edited file of the same size (or a rewrite within the
 * file system's timestamp granularity) must never meet the cache of its old text; and V8 rejects a cache made
 * under other flags, so `keel` (whose shebang sets one) and `node bin/keel.cjs` keep a cache each instead of
 * rewriting one on every switch. A cache V8 rejects is rewritten, one that
 * cannot be written is not used. `KEEL_NO_CODE_CACHE=1` turns it off.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";
import { keelCacheDir } from "./cache-dir.js";

export interface CachedModule {
  exports: unknown;
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
}

const hash = (text: string) => createHash("sha1").update(text).digest("hex").slice(0, 16);

/** Requires `file` (CommonJS) through the code cache, and registers it so later `require`s get the same module. */
export function requireWithCodeCache(file: string, options: CodeCacheOptions = {}): CachedModule {
  const source = options.source ?? readFileSync(file, "utf8");
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join("\0");
  const stem = `${basename(file).replace(/\W/g, "_")}-${hash(`${file}\0${flags}`)}`;
  const cache = process.env.KEEL_NO_CODE_CACHE
    ? undefined
    : join(keelCacheDir(), "v8", `${stem}-${process.version}-${process.arch}-${hash(source)}.bin`);
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
