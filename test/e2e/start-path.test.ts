/**
 * The start path stays CommonJS and `--version` stays one synchronous write: through the real binary, with a
 * preload noting which of Node's internals were loaded (test/support/loaded-builtins.cjs). An ES module bin or
 * launcher would start Node's ES module loader (~6 ms), `process.stdout` the stream machinery (~6 ms).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { keelEnv, runKeel } from "../support/keel-cli.ts";

const PRELOAD = join(import.meta.dirname, "..", "support", "loaded-builtins.cjs");

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
