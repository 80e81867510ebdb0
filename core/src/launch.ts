/**
 * Starts the bundled CLI with a V8 code cache. The bundle (dist/keel-cli.cjs: kernel, host, zod, commander …)
 * is about 1 MB; compiling it is the largest single cost of starting keel, and Node 20 has no module compile
 * cache. Running it through `vm.Script` with `cachedData` skips that compile on every run after the first.
 * A cache that V8 rejects (another Node version, a changed bundle) is rewritten; one that cannot be written is
 * simply not used.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import type { MainOptions } from "./cli/main.js";

type Cli = { main(argv: string[], options: MainOptions): Promise<number> };

function cacheFile(bundle: string): string {
  const { size, mtimeMs } = statSync(bundle);
  const root = process.env.KEEL_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "keel");
  return join(root, "v8", `keel-cli-${process.version}-${process.arch}-${size}-${Math.floor(mtimeMs)}.bin`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the cache atomically and drops caches of other builds; failure only means the next start compiles again. */
function writeCache(file: string, data: Buffer): void {
  try {
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, data);
    renameSync(temp, file);
    for (const name of readdirSync(dir)) if (name.startsWith("keel-cli-") && join(dir, name) !== file && !name.endsWith(".tmp")) rmSync(join(dir, name), { force: true });
  } catch {
    // A read-only home or a full disk: run without the cache.
  }
}

export async function launch(argv: string[], options: MainOptions): Promise<number> {
  const bundle = fileURLToPath(new URL("./keel-cli.cjs", import.meta.url));
  const cache = process.env.KEEL_NO_CODE_CACHE ? undefined : cacheFile(bundle);
  const cachedData = cache ? readCache(cache) : undefined;
  const script = new Script(Module.wrap(readFileSync(bundle, "utf8")), { filename: bundle, cachedData });
  const module = { exports: {} as Cli };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  const code = await module.exports.main(argv, options);
  // After the run, so the cache also holds the functions this run compiled lazily.
  if (cache && (!cachedData || script.cachedDataRejected)) writeCache(cache, script.createCachedData());
  return code;
}

/**
 * Exits once stdout and stderr have flushed. A CLI must not wait for what the run left open: an HTTP client's
 * keep-alive socket to the provider would otherwise hold the process for seconds after the answer.
 */
export function exitAfterFlush(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}
