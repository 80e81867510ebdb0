/**
 * What a start reads, through the real binary. The start path stays CommonJS and `--version` stays one
 * synchronous write, seen with a preload noting which of Node's internals were loaded
 * (test/support/loaded-builtins.cjs): an ES module bin or launcher would start Node's ES module loader (~6 ms),
 * `process.stdout` the stream machinery (~6 ms), beyond what Node's own boot loads on this line. Run as a command,
 * its shebang gives Node the flags it names (test/e2e/node-lines.test.ts checks every supported line takes them).
 * And of the manifest cache a start reads only the file of the plugin folders it looks at
 * (test/support/source-reads.cjs), whatever other folders the cache knows.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { keelEnv, KEEL_BIN, runKeel, SCRIPTED } from "../support/keel-cli.ts";
import { launcherFlags } from "../support/node-lines.ts";
import { nodeBootBuiltins } from "../support/node-boot.ts";
import { tempDir } from "../support/plugin-fixtures.ts";

const PRELOAD = join(import.meta.dirname, "..", "support", "loaded-builtins.cjs");
const READS = join(import.meta.dirname, "..", "support", "source-reads.cjs");

type Loaded = { modules: string[]; execArgv: string[] };

/** What `keel --version` loaded, run by `node` as the tests run it, or as a command (its shebang's `node`). */
async function versionLoads(how: "node" | "command"): Promise<Loaded> {
  const env = keelEnv();
  const list = join(env.home, "builtins.json");
  const extraEnv = { NODE_OPTIONS: `--require ${PRELOAD}`, KEEL_TEST_BUILTINS: list };
  if (how === "node") expect((await runKeel(["--version"], env, { extraEnv })).code).toBe(0);
  else {
    const run = spawnSync(KEEL_BIN, ["--version"], { env: { ...process.env, KEEL_HOME: env.home, ...extraEnv } });
    expect(run.status, String(run.stderr)).toBe(0);
  }
  return JSON.parse(readFileSync(list, "utf8"));
}

it("answers --version without the ES module loader or a stream", async () => {
  const { modules } = await versionLoads("node");
  expect(modules).toContain("NativeModule fs"); // the list is real: the bin read package.json
  const boot = nodeBootBuiltins();
  const late = modules.filter((name) => !boot.has(name.replace(/^NativeModule /, "")));
  expect(late.filter((name) => /modules\/esm\/loader|^NativeModule (stream|net)$/.test(name))).toEqual([]);
});

it("runs as a command with the Node flags of its shebang, which only the shebang can set", async () => {
  expect(launcherFlags().length).toBeGreaterThan(0);
  expect((await versionLoads("command")).execArgv).toEqual(launcherFlags());
  expect((await versionLoads("node")).execArgv).toEqual([]);
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
