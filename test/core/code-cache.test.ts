/**
 * The V8 code cache's staleness guarantee (core/src/code-cache.ts): a file whose last change is older than a
 * timestamp step is named by its status (device, inode, size, mtime, ctime) instead of a hash of its text, so a
 * same-size edit that puts the old mtime back must still miss, because its ctime moved; a file changed just now
 * is named by its text. Real files in a temp folder; the clock the guard reads is moved forward for the first.
 */
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { requireWithCodeCache } from "../../core/src/code-cache.ts";
import { tempDir } from "../support/plugin-fixtures.ts";

let saved: string | undefined;
let cacheDir: string;
beforeEach(() => {
  saved = process.env.KEEL_CACHE_DIR;
  cacheDir = tempDir("keel-code-cache-");
  process.env.KEEL_CACHE_DIR = cacheDir;
});
afterEach(() => {
  if (saved === undefined) delete process.env.KEEL_CACHE_DIR;
  else process.env.KEEL_CACHE_DIR = saved;
});

const later = () => Date.now() + 60_000;
/** A whole second, so that putting the mtime back restores it to the nanosecond. */
const ROUND = 1_700_000_000;
const caches = () => readdirSync(join(cacheDir, "v8")).filter((name) => name.endsWith(".bin"));

/** Loads `file` afresh (a new module each time) through the cache, saves the cache, and says what ran. */
function load(file: string, now?: () => number): { exports: unknown; fromCache: boolean } {
  const loaded = requireWithCodeCache(file, { now });
  loaded.saveCache();
  return { exports: loaded.exports, fromCache: loaded.fromCache };
}

it("names a settled file by its status, and a same-size edit with the old mtime put back still misses", () => {
  const file = join(tempDir("keel-code-cache-src-"), "mod.cjs");
  writeFileSync(file, `module.exports = "one1";`);
  utimesSync(file, ROUND, ROUND);
  expect(load(file, later)).toEqual({ exports: "one1", fromCache: false });
  expect(caches()).toHaveLength(1);
  expect(caches()[0]).toMatch(/-s[0-9a-z.]+\.bin$/);
  expect(load(file, later)).toEqual({ exports: "one1", fromCache: true });

  const before = statSync(file, { bigint: true });
  writeFileSync(file, `module.exports = "two2";`);
  utimesSync(file, ROUND, ROUND);
  const after = statSync(file, { bigint: true });
  // Only ctime tells the texts apart.
  expect([after.ino, after.size, after.mtimeNs]).toEqual([before.ino, before.size, before.mtimeNs]);
  expect(after.ctimeNs).not.toBe(before.ctimeNs);
  expect(statSync(file).size).toBe(`module.exports = "one1";`.length);
  expect(load(file, later)).toEqual({ exports: "two2", fromCache: false });
  // The old text's cache made way for the new one's.
  expect(caches()).toHaveLength(1);
  expect(load(file, later)).toEqual({ exports: "two2", fromCache: true });
});

it("names a file changed within the last step by its text", () => {
  const file = join(tempDir("keel-code-cache-src-"), "mod.cjs");
  writeFileSync(file, `module.exports = "one1";`);
  utimesSync(file, ROUND, ROUND);
  expect(load(file)).toEqual({ exports: "one1", fromCache: false });
  expect(caches()[0]).toMatch(/-h[0-9a-f]{16}\.bin$/);
  expect(load(file)).toEqual({ exports: "one1", fromCache: true });
  writeFileSync(file, `module.exports = "two2";`);
  utimesSync(file, ROUND, ROUND);
  expect(load(file)).toEqual({ exports: "two2", fromCache: false });
});
