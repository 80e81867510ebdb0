/**
 * The permission policy in the real binary: the default mode lets the README demo run without a question, and
 * `--permission-mode ask` in print mode (no one to ask) refuses the edit and the command with a reason.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED } from "../support/keel-cli.ts";

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
    const run = await runKeel(
      ["-p", "Fix add()", "--mode", "json", "--provider", "scripted", "--settings", settings],
      env,
      { timeoutMs: 60_000 },
    );
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
    const run = await runKeel(
      [
        "-p",
        "Fix add()",
        "--mode",
        "json",
        "--provider",
        "scripted",
        "--settings",
        settings,
        "--permission-mode",
        "ask",
      ],
      env,
      { timeoutMs: 60_000 },
    );
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

  it("an untrusted project's permissions only narrow: its full mode and allow rules do not apply, its deny rules do", async () => {
    const project = { permissions: { mode: "full", allow: ["bash(*)", "edit(**)"], deny: ["read(math.js)"] } };
    const env = keelEnv({ files: { ...files, ".keel/settings.json": JSON.stringify(project) } });
    const run = await runKeel(
      [
        "-p",
        "Fix add()",
        "--mode",
        "json",
        "--provider",
        "scripted",
        "--settings",
        settings,
        "--permission-mode",
        "ask",
      ],
      env,
      { timeoutMs: 60_000 },
    );
    expect(run.code).toBe(0);
    expect(decisions(run.stdout).map((d) => [d.toolName, d.decision, d.by, d.mode])).toEqual([
      ["read", "deny", "rule", "ask"],
      ["edit", "deny", "no_ui", "ask"],
      ["bash", "deny", "no_ui", "ask"],
    ]);
    expect(readFileSync(join(env.cwd, "math.js"), "utf8")).toBe(buggy);
  });

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

  it("lists its flags in keel --help", async () => {
    const run = await runKeel(["--help"], keelEnv());
    expect(run.stdout).toContain("--permission-mode <mode>");
    expect(run.stdout).toContain("--yes");
  });
});
