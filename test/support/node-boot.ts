/**
 * What Node itself loads before a script's first line, on the line the tests run on: the builtins an empty
 * CommonJS file loads under the same preload. Newer lines bring up parts of the ES module loader at boot (Node 26
 * loads internal/modules/esm/resolve from its CommonJS loader), so a test that keel loads no such module compares
 * against this baseline instead of a fixed list.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./plugin-fixtures.ts";

let cached: Set<string> | undefined;

/** Builtins (`NativeModule` names without the prefix) loaded by `node --require <preload> empty.cjs`. */
export function nodeBootBuiltins(): Set<string> {
  if (cached) return cached;
  const dir = tempDir("keel-node-boot-");
  const script = join(dir, "empty.cjs");
  const out = join(dir, "builtins.json");
  writeFileSync(script, "");
  const preload = join(import.meta.dirname, "loaded-builtins.cjs");
  const run = spawnSync(process.execPath, ["--require", preload, script], {
    env: { ...process.env, KEEL_TEST_BUILTINS: out, NODE_OPTIONS: "" },
  });
  if (run.status !== 0) throw new Error(`node could not run an empty file: ${String(run.stderr)}`);
  const { modules } = JSON.parse(readFileSync(out, "utf8")) as { modules: string[] };
  cached = new Set(modules.filter((name) => name.startsWith("NativeModule ")).map((name) => name.slice(13)));
  return cached;
}
