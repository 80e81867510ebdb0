/**
 * The permission policy in the real binary: the default mode lets the README demo run without a question, and
 * `--permission-mode ask` in print mode (no one to ask) refuses the edit and the command with a reason.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type KeelEnv, keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

const demoScript = fileURLToPath(new URL("../../scripts/demo-script.json", import.meta.url));
const buggy = "export function add(a, b) {\n  return a - b;\n}\n";
const files = {
  "package.json": '{ "type": "module" }\n',
  "math.js": buggy,
  "math.test.js": 'import { add } from "./math.js";\nif (add(2, 3) !== 5) process.exit(1);\nconsole.log("PASS");\n',
};
const settings = JSON.stringify({ "provider-scripted": { script: demoScript } });

/** Every line of every session file under the KEEL_HOME. */
function sessionLines(home: string): any[] {
  const files = readdirSync(join(home, "sessions"), { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".jsonl"),
  );
  return files.flatMap((f) =>
    readFileSync(join(home, "sessions", f), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)),
  );
}

/** The permission decisions the session files hold. */
function recordedDecisions(home: string) {
  return sessionLines(home)
    .filter(
      (e) => e.type === "custom" && e.plugin === "@keel/plugin-permissions" && e.customType === "permission_decision",
    )
    .map((e) => e.data);
}

/** The demo task ("Fix add()") in print mode with JSON events, as the README runs it, plus `extra` flags. */
function fixAdd(env: KeelEnv, ...extra: string[]) {
  const args = ["-p", "Fix add()", "--mode", "json", "--provider", "scripted", "--settings", settings];
  return runKeel([...args, ...extra], env, { timeoutMs: 60_000 });
}

function decisions(stdout: string) {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((e) => e.type === "permission_decision");
}

describe("permissions in the keel binary", () => {
  it("the default mode runs the demo's read, edit and test without asking", async () => {
    const env = keelEnv({ files });
    const run = await fixAdd(env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(decisions(run.stdout).map((d) => [d.toolName, d.decision, d.by, d.mode])).toEqual([
      ["read", "allow", "mode", "auto"],
      ["edit", "allow", "mode", "auto"],
      ["bash", "allow", "mode", "auto"],
    ]);
    expect(readFileSync(join(env.cwd, "math.js"), "utf8")).toContain("return a + b;");
    // Allows by the mode follow from the settings: the session records none of them.
    expect(recordedDecisions(env.home)).toEqual([]);
  });

  it("--permission-mode ask with no UI refuses the edit and the command, saying how to allow them", async () => {
    const env = keelEnv({ files });
    const run = await fixAdd(env, "--permission-mode", "ask");
    expect(run.code).toBe(0);
    const made = decisions(run.stdout);
    expect(made.map((d) => [d.toolName, d.decision, d.by])).toEqual([
      ["read", "allow", "mode"],
      ["edit", "deny", "no_ui"],
      ["bash", "deny", "no_ui"],
    ]);
    expect(made[1].reason).toContain("--permission-mode full");
    expect(made[2].reason).toContain("bash(node math.test.js)");
    // Refusals are recorded in the session as entries of the permissions plugin.
    expect(recordedDecisions(env.home).map((d) => [d.toolName, d.decision, d.by])).toEqual([
      ["edit", "deny", "no_ui"],
      ["bash", "deny", "no_ui"],
    ]);
    expect(readFileSync(join(env.cwd, "math.js"), "utf8")).toBe(buggy);
  });

  it(
    "an untrusted project's permissions only narrow: its full mode and allow rules do not apply, " +
      "its deny rules do",
    async () => {
      const project = { permissions: { mode: "full", allow: ["bash(*)", "edit(**)"], deny: ["read(math.js)"] } };
      const env = keelEnv({ files: { ...files, ".keel/settings.json": JSON.stringify(project) } });
      const run = await fixAdd(env, "--permission-mode", "ask");
      expect(run.code).toBe(0);
      expect(decisions(run.stdout).map((d) => [d.toolName, d.decision, d.by, d.mode])).toEqual([
        ["read", "deny", "rule", "ask"],
        ["edit", "deny", "no_ui", "ask"],
        ["bash", "deny", "no_ui", "ask"],
      ]);
      expect(readFileSync(join(env.cwd, "math.js"), "utf8")).toBe(buggy);
    },
  );

  it("deny and ask rules add up across layers: a trusted project's and --settings' rules join the user's", async () => {
    const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });
    const project = { permissions: { deny: ["bash(rm *)"], ask: ["bash(touch asked*)"] } };
    const env = keelEnv({
      files: { ".keel/settings.json": JSON.stringify(project), "victim.txt": "keep\n" },
      script: [bash("touch user-denied.txt"), bash("rm victim.txt"), bash("touch asked.txt"), { text: "done" }],
    });
    writeFileSync(
      join(env.home, "settings.json"),
      JSON.stringify({ permissions: { deny: ["bash(touch user-denied*)"] } }),
    );
    // An empty list from a higher layer removes nothing below it.
    const scripted = JSON.stringify({
      "provider-scripted": { script: "turns.json" },
      permissions: { deny: [], ask: [] },
    });
    const args = ["-p", "go", "--mode", "json", "--trust", "--provider", "scripted", "--settings", scripted];
    const run = await runKeel([...args, "--permission-mode", "full"], env, { timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(decisions(run.stdout).map((d) => [d.decision, d.by, d.rule])).toEqual([
      ["deny", "rule", "bash(touch user-denied*)"],
      ["deny", "rule", "bash(rm *)"],
      ["deny", "no_ui", "bash(touch asked*)"],
    ]);
    expect(existsSync(join(env.cwd, "victim.txt"))).toBe(true);
    expect(existsSync(join(env.cwd, "user-denied.txt"))).toBe(false);
    expect(existsSync(join(env.cwd, "asked.txt"))).toBe(false);
  });

  it(
    "fails closed: an invalid permissions section or disabling the plugin stops keel before any " + "call runs",
    async () => {
      const script = [{ toolCalls: [{ name: "bash", arguments: { command: "touch ran.txt" } }] }, { text: "done" }];
      const broken = [{ permissions: { deny: "bash(rm *)" } }, { plugins: { disabled: ["@keel/plugin-permissions"] } }];
      for (const user of broken) {
        const env = keelEnv({ script });
        writeFileSync(join(env.home, "settings.json"), JSON.stringify(user));
        const run = await runKeel(["-p", "go", ...SCRIPTED, "--permission-mode", "full"], env);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain("Required plugin cannot run, so keel stops: @keel/plugin-permissions");
        expect(existsSync(join(env.cwd, "ran.txt"))).toBe(false);
      }
    },
  );

  it("a --permission-mode that is not a mode stops keel before anything runs", async () => {
    const env = keelEnv({ files });
    const run = await runKeel(
      ["-p", "Fix add()", "--provider", "scripted", "--settings", settings, "--permission-mode", "yolo"],
      env,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--permission-mode must be ask, auto, full (got "yolo")');
    expect(readFileSync(join(env.cwd, "math.js"), "utf8")).toBe(buggy);
  });

  it("in the chat, always allow runs the call and saves the rule to the user's settings", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch made.txt" } }] }, { text: "finished" }],
    });
    const run = await runKeel([...SCRIPTED], env, { input: "make the file\n3\n" });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("3. Always allow bash(touch *)");
    expect(existsSync(join(env.cwd, "made.txt"))).toBe(true);
    expect(JSON.parse(readFileSync(join(env.home, "settings.json"), "utf8"))).toEqual({
      permissions: { allow: ["bash(touch *)"] },
    });
  });

  it("a grant for this session holds again after the session is resumed, and only in that session", async () => {
    const touch = (file: string) => ({ toolCalls: [{ name: "bash", arguments: { command: `touch ${file}` } }] });
    const env = keelEnv({ script: [touch("a.txt"), { text: "made a" }] });
    const chat = await runKeel([...SCRIPTED], env, { input: "make a\n2\n" });
    expect(chat.code).toBe(0);
    expect(chat.stderr).toContain("2. Allow for this session (bash(touch *))");
    expect(existsSync(join(env.cwd, "a.txt"))).toBe(true);

    // Resumed in print mode, where nobody can be asked: the grant from the session answers.
    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify([touch("b.txt"), { text: "made b" }]));
    const resumed = await runKeel(["-c", "-p", "make b", "--mode", "json", ...SCRIPTED], env);
    expect(resumed.code).toBe(0);
    expect(existsSync(join(env.cwd, "b.txt"))).toBe(true);
    expect(decisions(resumed.stdout).map((d) => [d.decision, d.by])).toEqual([["allow", "session"]]);

    // A new session has no grant: the same call is refused for want of someone to ask.
    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify([touch("c.txt"), { text: "no c" }]));
    const fresh = await runKeel(["-p", "make c", "--mode", "json", ...SCRIPTED], env);
    expect(existsSync(join(env.cwd, "c.txt"))).toBe(false);
    expect(decisions(fresh.stdout).map((d) => [d.decision, d.by])).toEqual([["deny", "no_ui"]]);
  });

  it("lists its flags in keel --help", async () => {
    const run = await runKeel(["--help"], keelEnv());
    expect(run.stdout).toContain("--permission-mode <mode>");
    expect(run.stdout).toContain("--yes");
  });
});
