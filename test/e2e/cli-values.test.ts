/**
 * Bad flag values through the real binary: each is an error exit (2) that says what was wrong, before any
 * session or request; `--plugin` paths resolve against the current folder; a mode sees the session's model
 * before the first prompt; a failing hook's message names the hook and the plugin.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";
import { writePlugin } from "../support/plugin-fixtures.ts";

/** A mode that prints the session's model, then runs one prompt and prints how it ended. */
const MODEL_MODE = `
import { definePlugin } from "@keel/extensions-api";
export default definePlugin({ activate(api) {
  api.registerMode({ name: "show-model", description: "prints the model", async run(runtime) {
    console.log("model: " + (runtime.model ? runtime.model.provider + "/" + runtime.model.id : "none"));
    const result = await runtime.prompt("hi");
    console.log("run: " + result.reason + (result.errorMessage ? " " + result.errorMessage : ""));
    return 0;
  } });
} });`;

describe("bad flag values are an error exit before anything runs", () => {
  it("refuses --session naming no session, and records none", async () => {
    const env = keelEnv({ script: [{ text: "should not run" }] });
    const run = await runKeel(["-p", "go", "--session", "nope", ...SCRIPTED], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "keel: --session nope: no session with that id; run `keel sessions` (or `keel sessions --all`) to list them\n",
    );
    expect(existsSync(join(env.home, "sessions")) ? readdirSync(join(env.home, "sessions")) : []).toEqual([]);
  });

  it("refuses --settings that is not valid JSON", async () => {
    const env = keelEnv({ script: [{ text: "should not run" }] });
    const run = await runKeel(["-p", "go", "--settings", '{"loop": {', ...SCRIPTED], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^keel: --settings is not valid JSON \(.+\)\. Fix it, or pass the path of a JSON file\.\n$/,
    );
  });

  it("refuses --settings naming a file that does not exist", async () => {
    const env = keelEnv();
    const run = await runKeel(["-p", "go", "--settings", "missing.json"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`keel: --settings missing.json: no such file in ${env.cwd} (and it is not inline JSON).\n`);
  });

  it("refuses --plugin naming a single file: a plugin is a folder", async () => {
    const env = keelEnv({ files: { "tool.ts": "export default {};" } });
    const run = await runKeel(["-p", "go", "--plugin", "./tool.ts", ...SCRIPTED], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `keel: --plugin ./tool.ts: is a file, but a plugin is a folder with a package.json whose ` +
        `"keel" field is its manifest. Put the file in a folder with one (see docs/writing-plugins.md).\n`,
    );
  });

  it("refuses --plugin naming nothing", async () => {
    const env = keelEnv();
    const run = await runKeel(["-p", "go", "--plugin", "./nowhere"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`keel: --plugin ./nowhere: there is no such folder (${join(env.cwd, "nowhere")}).\n`);
  });
});

it("resolves --plugin against the current folder, not --cwd", async () => {
  const env = keelEnv({ script: [{ text: "ran with the plugin" }] });
  writePlugin(env.cwd, {
    name: "here-mode",
    keel: { contributes: { modes: ["here"] } },
    source: MODEL_MODE.replace(/show-model/g, "here"),
  });
  const workspace = join(env.home, "elsewhere");
  mkdirSync(workspace);
  writeFileSync(join(workspace, "turns.json"), JSON.stringify([{ text: "ran with the plugin" }]));
  const run = await runKeel(["--mode", "here", "--plugin", "./here-mode", "--cwd", workspace, ...SCRIPTED], env);
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe("model: scripted/script\nrun: stop\n");
  expect(run.code).toBe(0);
});

it("shows a mode the session's model before the first prompt; a missing key is an error only for the run", async () => {
  const env = keelEnv();
  writePlugin(env.cwd, { name: "model-mode", keel: { contributes: { modes: ["show-model"] } }, source: MODEL_MODE });
  const run = await runKeel(
    ["--mode", "show-model", "--plugin", "./model-mode", "--provider", "anthropic", "--model", "claude-sonnet-4-5"],
    env,
    { extraEnv: { ANTHROPIC_API_KEY: "" } },
  );
  const [shown, ended] = run.stdout.split("\n");
  expect(shown).toBe("model: anthropic/claude-sonnet-4-5");
  expect(ended).toMatch(/^run: error .*ANTHROPIC_API_KEY/);
});

it("names the hook and the plugin when a hook handler fails", async () => {
  const env = keelEnv({ script: [{ text: "answer" }] });
  const source = `import { definePlugin } from "@keel/extensions-api";
    export default definePlugin({ activate(api) {
      api.hooks.tap("message_end", () => { throw new Error("boom"); });
    } });`;
  writePlugin(env.cwd, { name: "bad-hook", keel: { contributes: { hooks: ["message_end"] } }, source });
  const run = await runKeel(["-p", "go", "--plugin", "./bad-hook", ...SCRIPTED], env);
  expect(run.stdout).toBe("answer\n");
  expect(run.stderr).toBe("keel: plugin bad-hook@1.0.0: its message_end hook failed: boom\n");
});
