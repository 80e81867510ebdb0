/**
 * The long-lived shell through the real binary: a `-p` run's commands share one helper, each still in its
 * own folder and environment, and the helper does not outlive the run (nor does one a killed keel left, nor
 * the spare shell it keeps for the next command).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { startMockLlm } from "@keel/provider-kit/mock-llm";
import { describe, expect, it } from "vitest";
import { helperOf, sparesOf } from "../../plugins/ops-local/test/helper-probes.ts";
import { isAlive } from "../support/processes.ts";
import { KEEL_BIN, keelEnv, runKeel } from "../support/keel-cli.ts";
import { until } from "../support/until.ts";

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });
const ARGS = ["-p", "go", "--mode", "json", "--provider", "scripted", "--permission-mode", "full"];
const SETTINGS = ["--settings", '{"provider-scripted":{"script":"turns.json"}}'];

function toolTexts(stdout: string): string[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((event) => event.type === "tool_execution_end")
    .map((event) => String(event.result.content[0]?.text ?? ""));
}

/** Reads `file` once it holds a whole line. */
async function lineIn(file: string): Promise<string> {
  let text = "";
  await until(() => {
    try {
      text = readFileSync(file, "utf8");
    } catch {
      // not yet
    }
    return text.endsWith("\n");
  });
  return text;
}

describe("the long-lived shell of a keel run", () => {
  it("runs every command of the run in one helper, each clean, and ends with the run", async () => {
    const env = keelEnv({
      script: [
        bash("cd /tmp && export KEEL_LEAK=1 && echo helper=$PPID"),
        bash('echo "helper=$PPID $PWD ${KEEL_LEAK-unset}"'),
        { text: "done" },
      ],
    });
    const run = await runKeel([...ARGS, ...SETTINGS], env);
    expect(run.code).toBe(0);
    const [first, second] = toolTexts(run.stdout);
    expect(second).toContain(` ${env.cwd} unset\n`);
    expect(helperOf(second!)).toBe(helperOf(first!));
    await until(() => !isAlive(helperOf(first!)));
  });

  it("does not leave its helper or the helper's command behind when keel is killed mid-command", async () => {
    const env = keelEnv({ script: [bash("echo helper=$PPID pid=$$ > started.txt; sleep 1000"), { text: "done" }] });
    const keel = spawn(process.execPath, [KEEL_BIN, ...ARGS, ...SETTINGS], {
      cwd: env.cwd,
      env: { ...process.env, KEEL_HOME: env.home },
      stdio: "ignore",
    });
    const started = await lineIn(`${env.cwd}/started.txt`);
    keel.kill("SIGKILL");
    const shell = Number(/pid=(\d+)/.exec(started)![1]);
    await until(() => !isAlive(helperOf(started)) && !isAlive(shell));
  });

  it("does not leave the spare shell behind when keel is killed while the model answers", async () => {
    const llm = await startMockLlm();
    try {
      llm.push(
        { reply: { toolCalls: [{ name: "bash", arguments: { command: "echo helper=$PPID > helper.txt" } }] } },
        { reply: { text: "never sent" }, fault: { kind: "hang", afterEvents: 0 } },
      );
      const env = keelEnv();
      const keel = spawn(
        process.execPath,
        [KEEL_BIN, "-p", "go", "--provider", "openai", "--model", "gpt-4.1-mini", "--permission-mode", "full"],
        {
          cwd: env.cwd,
          env: { ...process.env, KEEL_HOME: env.home, OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-e2e" },
          stdio: "ignore",
        },
      );
      const helper = helperOf(await lineIn(`${env.cwd}/helper.txt`));
      await until(() => llm.requests.length === 2 && sparesOf(helper).length === 1);
      const [spare] = sparesOf(helper);
      keel.kill("SIGKILL");
      await until(() => !isAlive(helper) && !isAlive(spare!));
    } finally {
      await llm.close();
    }
  });
});
