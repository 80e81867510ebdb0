/**
 * What a start reads, through the real binary. The start path stays CommonJS and `--version` stays one
 * synchronous write, seen with a preload noting which of Node's internals were loaded
 * (test/support/loaded-builtins.cjs): an ES module bin or launcher would start Node's ES module loader (~6 ms),
 * `process.stdout` the stream machinery (~6 ms). And of the manifest cache a start reads only the file of the
 * plugin folders it looks at (test/support/source-reads.cjs), whatever other folders the cache knows.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { keelEnv, KEEL_BIN, runKeel, SCRIPTED } from "../support/keel-cli.ts";
import { tempDir } from "../support/plugin-fixtures.ts";

const PRELOAD = join(import.meta.dirname, "..", "support", "loaded-builtins.cjs");
const READS = join(import.meta.dirname, "..", "support", "source-reads.cjs");

async function builtinsOf(args: string[]): Promise<string[]> {
  const env = keelEnv();
  const list = join(env.home, "builtins.txt");
  const run = await runKeel(args, env, {
    extraEnv: { NODE_OPTIONS: `--require ${PRELOAD}`, KEEL_TEST_BUILTINS: list },
  });
  expect(run.code, run.stderr).toBe(0);
  return readFileSync(list, "utf8").split("\n");
}

it("answers --version without the ES module loader or a stream", async () => {
  const loaded = await builtinsOf(["--version"]);
  expect(loaded).toContain("NativeModule fs"); // the list is real: the bin read package.json
  expect(loaded.filter((name) => /modules\/esm\/loader|^NativeModule (stream|net)$/.test(name))).toEqual([]);
});

it("reads only the manifest cache's file of the plugin folders it looks at", async () => {
  const cache = tempDir("keel-start-cache-");
  const env = keelEnv({ script: [{ text: "done" }, { text: "done" }] });
  const extraEnv = { KEEL_CACHE_DIR: cache };
  expect((await runKeel(["-p", "go", ...SCRIPTED], env, { extraEnv })).code).toBe(0);
  const own = `${encodeURIComponent(join(KEEL_BIN, "..", "..", "plugins"))}.json`;
  expect(readdirSync(join(cache, "manifests"))).toEqual([own]);
  // A folder of plugins some other run looked at, still there: its file stays, unread by this start.
  const unrelated = join(cache, "manifests", `${encodeURIComponent(tempDir("keel-unrelated-"))}.json`);
  writeFileSync(unrelated, JSON.stringify({ format: 0, entries: {} }));

  const reads = join(env.home, "reads.txt");
  const run = await runKeel(["-p", "go", ...SCRIPTED], env, {
    extraEnv: { ...extraEnv, NODE_OPTIONS: `--require ${READS}`, KEEL_TEST_READS: reads, KEEL_TEST_READS_UNDER: cache },
  });
  expect(run.code, run.stderr).toBe(0);
  const read = readFileSync(reads, "utf8").split("\n");
  expect(read.filter((file) => file.includes("/manifests/"))).toEqual([join(cache, "manifests", own)]);
  expect(existsSync(unrelated)).toBe(true);
});
