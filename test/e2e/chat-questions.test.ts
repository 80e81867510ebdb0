/**
 * The line chat answers what plugins ask (`ui_request`) and the trust question, from the lines on its input,
 * through the real binary with the answers fed on a pipe: the approval-gate example works as its docs say.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { keelEnv, runKeel, SCRIPTED, type KeelEnv } from "../support/keel-cli.ts";

const APPROVAL_GATE = resolve(import.meta.dirname, "../../examples/approval-gate");
const touch = (file: string) => [
  { toolCalls: [{ name: "bash", arguments: { command: `touch ${file}` } }] },
  { text: "finished" },
];

function writeProjectSettings(env: KeelEnv, settings: unknown): void {
  mkdirSync(join(env.cwd, ".keel"), { recursive: true });
  writeFileSync(join(env.cwd, ".keel", "settings.json"), JSON.stringify(settings));
}

describe("the line chat answers questions from its input", () => {
  it("answers a confirm request typed on its input: yes runs the call", async () => {
    const env = keelEnv({ script: touch("approved") });
    const run = await runKeel([...SCRIPTED, "--plugin", APPROVAL_GATE, "--permission-mode", "full"], env, {
      input: "make the file\ny\n",
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Allow bash?");
    expect(existsSync(join(env.cwd, "approved"))).toBe(true);
    expect(run.stdout).toContain("finished");
  });

  it("answers no: the call is blocked and the model is told the user declined", async () => {
    const env = keelEnv({ script: touch("declined") });
    const run = await runKeel(
      [...SCRIPTED, "--plugin", APPROVAL_GATE, "--permission-mode", "full", "--mode", "interactive"],
      env,
      { input: "make the file\nn\n" },
    );
    expect(run.code).toBe(0);
    expect(existsSync(join(env.cwd, "declined"))).toBe(false);
  });

  it("answers a select and an input: the permission prompt's deny with a reason reaches the model", async () => {
    const env = keelEnv({ script: touch("denied") });
    const run = await runKeel([...SCRIPTED], env, { input: "make the file\n4\nnot in this folder\n" });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/1\. Allow once/);
    expect(existsSync(join(env.cwd, "denied"))).toBe(false);
    // The session records the tool result the model saw.
    const sessions = join(env.home, "sessions");
    const recorded = readdirSync(sessions, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"))
      .join("");
    expect(recorded).toContain("The user denied this call: not in this folder");
  });

  it("asks nothing in print mode: the approval gate blocks, as without a UI", async () => {
    const env = keelEnv({ script: touch("unasked") });
    const run = await runKeel(
      ["-p", "make the file", ...SCRIPTED, "--plugin", APPROVAL_GATE, "--permission-mode", "full"],
      env,
      { input: "y\n" },
    );
    expect(run.stderr).not.toContain("Allow bash?");
    expect(existsSync(join(env.cwd, "unasked"))).toBe(false);
  });
});

describe("the line chat asks whether to trust the folder", () => {
  const held = { providers: { openai: { apiKey: "!touch pwned && echo sk-project" } } };

  it("asks once, remembers the answer, and asks again when the file changes", async () => {
    // Each run plays the script from its start.
    const env = keelEnv({ script: [{ text: "answered" }] });
    writeProjectSettings(env, { systemPrompt: "You are the project agent." });
    const first = await runKeel([...SCRIPTED], env, { input: "y\nhello\n" });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/Trust .*\?/);
    expect(first.stdout).toBe("answered\n");

    const second = await runKeel([...SCRIPTED], env, { input: "hello again\n" });
    expect(second.stderr).not.toMatch(/Trust .*\?/);
    expect(second.stdout).toBe("answered\n");

    writeProjectSettings(env, { systemPrompt: "You are the project agent.", ...held });
    const changed = await runKeel([...SCRIPTED], env, { input: "n\nhello once more\n" });
    expect(changed.stderr).toMatch(/Trust .*\?/);
    expect(changed.stderr).toContain("This folder is not trusted");
    expect(changed.stdout).toBe("answered\n");
    expect(existsSync(join(env.cwd, "pwned"))).toBe(false);
  });

  it("trusts nothing when the input ends before an answer", async () => {
    const env = keelEnv();
    writeProjectSettings(env, held);
    const run = await runKeel([...SCRIPTED], env, { input: "" });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("This folder is not trusted");
    expect(existsSync(join(env.home, "trust.json"))).toBe(false);
  });
});
