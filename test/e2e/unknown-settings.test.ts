/**
 * Settings keys nobody reads are reported through the real binary, naming the layer they are in and the key,
 * with a suggestion when a known key is close; sections of installed plugins that are not loaded are not.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";
import { writePlugin } from "../support/plugin-fixtures.ts";

const FIELDS_PLUGIN = `
import { definePlugin, z } from "@keel/extensions-api";
export default definePlugin({
  settings: z.object({
    fields: z.array(z.string()).default([]),
    limits: z.object({ depth: z.number().default(1) }).default({ depth: 1 }),
    extra: z.object({}).loose().default({}),
  }).default({ fields: [], limits: { depth: 1 }, extra: {} }),
  activate() {},
});`;

function userSettings(home: string, settings: unknown): string {
  mkdirSync(home, { recursive: true });
  const file = join(home, "settings.json");
  writeFileSync(file, JSON.stringify(settings));
  return file;
}

it("reports unknown top-level keys and unknown keys in keel's own sections, per layer, with a suggestion", async () => {
  const env = keelEnv({ script: [{ text: "ok" }] });
  const file = userSettings(env.home, { systemPromt: "be brief", loop: { maxStep: 3 } });
  const run = await runKeel(["-p", "go", ...SCRIPTED, "--settings", '{"zzqx": 1}'], env);
  expect(run.code).toBe(0);
  expect(run.stderr.split("\n").filter(Boolean)).toEqual([
    `keel: Setting "systemPromt" in ${file} is read by neither keel nor any installed plugin, so it ` +
      `has no effect. Did you mean "systemPrompt"?`,
    `keel: Setting "loop.maxStep" in ${file} is not one keel knows, so it has no effect. Did you mean "maxSteps"?`,
    `keel: Setting "zzqx" in --settings #2 is read by neither keel nor any installed plugin, so it has no effect.`,
  ]);
});

it("reports keys a plugin's schema does not have, nested too, but not inside a section it keeps open", async () => {
  const env = keelEnv({ script: [{ text: "ok" }] });
  writePlugin(env.cwd, { name: "fielder", keel: { activation: ["onStartup"] }, source: FIELDS_PLUGIN });
  const file = userSettings(env.home, { fielder: { fiels: ["a"], limits: { dept: 2 }, extra: { anything: true } } });
  const run = await runKeel(["-p", "go", "--plugin", "./fielder", ...SCRIPTED], env);
  expect(run.code).toBe(0);
  expect(run.stderr.split("\n").filter(Boolean)).toEqual([
    `keel: plugin fielder: Setting "fielder.fiels" in ${file} is not one the plugin knows, so it ` +
      `has no effect. Did you mean "fields"?`,
    `keel: plugin fielder: Setting "fielder.limits.dept" in ${file} is not one the plugin knows, so ` +
      `it has no effect. Did you mean "depth"?`,
  ]);
});

it("knows the section of an installed plugin that is not loaded", async () => {
  const env = keelEnv({ script: [{ text: "ok" }] });
  const source = `import { definePlugin } from "@keel/extensions-api";
    export default definePlugin({ activate(api) {
      api.registerCommand({ name: "/later", description: "x", run() {} });
    } });`;
  mkdirSync(join(env.home, "plugins"));
  writePlugin(join(env.home, "plugins"), {
    name: "lazy-later",
    keel: { contributes: { commands: ["/later"] }, settingsKey: "later" },
    source,
  });
  userSettings(env.home, { later: { anything: 1 } });
  const run = await runKeel(["-p", "go", ...SCRIPTED], env);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const listed = await runKeel(["plugins"], env);
  expect(listed.stdout).toMatch(/lazy-later\s+1\.0\.0\s+user\s+lazy/);
});
