/**
 * CommonJS plugin entries through the real binary: a bundle that is missing, throws at load, does not define a
 * plugin or does not parse is skipped with the same clear error a TypeScript entry gets; one that throws from a
 * timer is contained and named like any plugin; and its V8 code cache is used on the next start but never for
 * an edited bundle, even one of the same size and modification time.
 */
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SETTLED_MS } from "../../core/src/code-cache.ts";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";
import { writePlugin } from "../support/plugin-fixtures.ts";
import { until } from "../support/until.ts";

const ARGS = [...SCRIPTED, "--permission-mode", "full"];

/** A CommonJS plugin whose tool `say` answers `text`; `head` runs at load. */
function sayPlugin(env: KeelEnv, name: string, text: string, head = ""): string {
  const source = `"use strict";
    const { definePlugin, z } = require("@keel/extensions-api");
    ${head}
    module.exports = definePlugin({ activate(api) {
      api.registerTool({ name: "say", description: "says", parameters: z.object({}).loose(),
        async execute() { return { content: ${JSON.stringify(text)} }; } });
    } });`;
  return writePlugin(env.cwd, {
    name,
    keel: { entry: "./dist/say-plugin.cjs", contributes: { tools: ["say"] } },
    files: { "dist/say-plugin.cjs": source },
  });
}

const callSay = (text: string) => [{ toolCalls: [{ name: "say" }] }, { text }];

describe("a broken .cjs entry is skipped with a reason naming it, and the agent still runs", () => {
  const cases: { name: string; files: Record<string, string>; reason: RegExp }[] = [
    { name: "cjs-missing", files: {}, reason: /its entry \S+\/dist\/index\.cjs could not be loaded: ENOENT/ },
    {
      name: "cjs-throws",
      files: { "dist/index.cjs": `throw new Error("kaboom at load");` },
      reason: /its entry \S+\/dist\/index\.cjs failed to load: kaboom at load$/,
    },
    {
      name: "cjs-not-a-plugin",
      files: { "dist/index.cjs": `module.exports = { name: "nothing to activate" };` },
      reason: /its entry \S+\/dist\/index\.cjs must export default definePlugin\(\{ activate\(api\) \{ \.\.\. \} \}\)$/,
    },
    {
      name: "cjs-syntax",
      files: { "dist/index.cjs": `module.exports = {{{ nope` },
      reason: /its entry \S+\/dist\/index\.cjs failed to load: Unexpected token/,
    },
  ];
  for (const { name, files, reason } of cases)
    it(name, async () => {
      const env = keelEnv({ script: [{ text: "still here" }] });
      const plugin = writePlugin(env.cwd, {
        name,
        keel: { entry: "./dist/index.cjs", activation: ["onStartup"] },
        files,
      });
      const run = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
      expect(run).toMatchObject({ code: 0, stdout: "still here\n" });
      const line = run.stderr.split("\n").find((l) => l.startsWith(`keel: plugin ${name}@1.0.0: skipped: `));
      expect(line, run.stderr).toMatch(reason);
    });
});

it("reports an error a .cjs plugin throws from a timer against that plugin, and keeps running", async () => {
  const env = keelEnv({
    script: [{ toolCalls: [{ name: "say" }] }, { toolCalls: [{ name: "wait_late" }] }, { text: "survived" }],
  });
  const source = `"use strict";
    const { definePlugin, z } = require("@keel/extensions-api");
    module.exports = definePlugin({ activate(api) {
      api.registerTool({ name: "say", description: "throws later", parameters: z.object({}).loose(),
        async execute() {
          setTimeout(() => { globalThis.lateFired = true; throw new Error("late boom"); }, 1);
          return { content: "returned before the timer" };
        } });
      api.registerTool({ name: "wait_late", description: "waits", parameters: z.object({}).loose(),
        execute: () => new Promise((resolve) => {
          const poll = () =>
            globalThis.lateFired ? setImmediate(() => resolve({ content: "fired" })) : setImmediate(poll);
          poll();
        }) });
    } });`;
  const plugin = writePlugin(env.cwd, {
    name: "cjs-late",
    keel: { entry: "./dist/index.cjs", contributes: { tools: ["say", "wait_late"] } },
    files: { "dist/index.cjs": source },
  });
  const run = await runKeel(["-p", "go", "--plugin", plugin, ...ARGS], env);
  expect(run).toMatchObject({ code: 0, stdout: "survived\n" });
  expect(run.stderr).toMatch(
    /^keel: plugin cjs-late@1\.0\.0: an error was thrown outside any call keel made .*: late boom\. keel carried on/m,
  );
});

it("runs a .cjs entry from its code cache on the next start, and an edited one from its new text", async () => {
  const env = keelEnv({ script: callSay("done") });
  const cacheDir = join(env.home, "cache");
  const plugin = sayPlugin(env, "cjs-cached", "first");
  const bundle = join(plugin, "dist", "say-plugin.cjs");
  const run = () =>
    runKeel(["-p", "go", "--mode", "json", "--plugin", plugin, ...ARGS], env, {
      extraEnv: { KEEL_CACHE_DIR: cacheDir },
    });
  const said = (stdout: string) => /"text":"(first|other)"/.exec(stdout)?.[1];
  const caches = () => readdirSync(join(cacheDir, "v8")).filter((f) => f.startsWith("say_plugin_cjs-"));

  // A file changed in the last SETTLED_MS is named by its text's hash, an older one by its status: two starts
  // on either side of that moment (a loaded machine's) name one text differently. Each start below that compares
  // caches comes once the bundle has settled.
  const settled = () => until(() => Date.now() - statSync(bundle).ctimeMs > SETTLED_MS + 100, 50);
  await settled();
  const one = await run();
  expect(said(one.stdout), one.stderr).toBe("first");
  const [cache] = caches();
  expect(caches()).toHaveLength(1);
  const written = statSync(join(cacheDir, "v8", cache!)).mtimeMs;

  // Accepted: the second start does not write it again.
  expect(said((await run()).stdout)).toBe("first");
  expect(caches()).toEqual([cache]);
  expect(statSync(join(cacheDir, "v8", cache!)).mtimeMs).toBe(written);

  // The same length and the old modification time: only the text tells them apart.
  const { atime, mtime, size } = statSync(bundle);
  sayPlugin(env, "cjs-cached", "other");
  utimesSync(bundle, atime, mtime);
  expect(statSync(bundle).size).toBe(size);
  expect(statSync(bundle).mtime.getTime()).toBe(mtime.getTime());
  expect(said((await run()).stdout)).toBe("other");
  // The old text's cache is replaced by the new one's.
  expect(caches()).toHaveLength(1);
  expect(caches()).not.toEqual([cache]);
  await settled();
  expect(said((await run()).stdout)).toBe("other");

  // V8 rejects a cache made under other flags: a start with other flags keeps a cache of its own beside it.
  const [plain] = caches();
  const flagged = await runKeel(["-p", "go", "--mode", "json", "--plugin", plugin, ...ARGS], env, {
    extraEnv: { KEEL_CACHE_DIR: cacheDir, NODE_OPTIONS: "--max-semi-space-size=1" },
  });
  expect(said(flagged.stdout), flagged.stderr).toBe("other");
  expect(caches()).toHaveLength(2);
  const plainWritten = statSync(join(cacheDir, "v8", plain!)).mtimeMs;
  expect(said((await run()).stdout)).toBe("other");
  expect(statSync(join(cacheDir, "v8", plain!)).mtimeMs).toBe(plainWritten);
});
