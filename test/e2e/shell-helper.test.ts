/**
 * The long-lived shell through the real binary: a `-p` run's commands share one helper, each still in its
 * own folder and environment, and the helper does not outlive the run (nor does one a killed keel left).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
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

const helperOf = (text: string) => Number(/helper=(\d+)/.exec(text)![1]);

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
    let started = "";
    await until(() => {
      try {
        started = readFileSync(`${env.cwd}/started.txt`, "utf8");
      } catch {
        // not yet
      }
      return started.endsWith("\n");
    });
    keel.kill("SIGKILL");
    const shell = Number(/pid=(\d+)/.exec(started)![1]);
    await until(() => !isAlive(helperOf(started)) && !isAlive(shell));
  });
});
