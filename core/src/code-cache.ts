/**
 * Loading a CommonJS file with a V8 code cache. Node 20 has no module compile cache, and keel's two large
 * files — the bundled CLI and jiti — would otherwise be compiled on every start. The cache lives under
 * `~/.cache/keel/v8`, keyed by Node version and the file's size and mtime; a cache V8 rejects is rewritten, one
 * that cannot be written is not used. `KEEL_NO_CODE_CACHE=1` turns it off.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
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

/** Requires `file` (CommonJS) through the code cache, and registers it so later `require`s get the same module. */
export function requireWithCodeCache(file: string): CachedModule {
  const { size, mtimeMs } = statSync(file);
  const stem = basename(file).replace(/\W/g, "_");
  const cache = process.env.KEEL_NO_CODE_CACHE
    ? undefined
    : join(keelCacheDir(), "v8", `${stem}-${process.version}-${process.arch}-${size}-${Math.floor(mtimeMs)}.bin`);
  let cachedData: Buffer | undefined;
  try {
    if (cache) cachedData = readFileSync(cache);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
  const module = new Module(file) as Module & { filename: string; loaded: boolean; paths: string[] };
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  (createRequire(file).cache as Record<string, unknown>)[file] = module;
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  return {
    exports: module.exports,
    saveCache() {
      if (cache && (!cachedData || script.cachedDataRejected)) writeCache(cache, stem, script.createCachedData());
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
