/**
 * Background processes: bash({ background: true }) returns an id at once; the process tool lists them, reads
 * new output, waits with a timeout, sends input and kills; killAll (the session's end) leaves nothing running.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BackgroundProcesses } from "../src/background.ts";
import { bashTool } from "../src/bash-tool.ts";
import { ProcessParams, processTool } from "../src/process-tool.ts";
import { BashSettingsSchema } from "../src/settings.ts";
import { groupMembers, localWorkspace, processesWithEnv, textOf } from "../../../test/support/processes.ts";

const ws = localWorkspace();
const settings = BashSettingsSchema.parse({ killGraceMs: 300, maxBackground: 3 });
let background = new BackgroundProcesses(settings);
afterEach(async () => {
  await background.killAll();
  background = new BackgroundProcesses(settings);
});
afterAll(() => rmSync(ws.root, { recursive: true, force: true }));

async function start(command: string) {
  const { ctx } = ws.context();
  const result = await bashTool(settings, background).execute({ command, background: true }, ctx);
  return { text: textOf(result), id: (result.details as { id: string }).id };
}

async function processCall(input: Record<string, unknown>) {
  const { ctx } = ws.context();
  const result = await processTool(background).execute(ProcessParams.parse(input), ctx);
  return textOf(result);
}

describe("background processes", () => {
  it("bash with background: true returns an id at once and leaves the process running", async () => {
    const started = Date.now();
    const { text, id } = await start("sleep 1000");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(text).toMatch(/^Started background process 1 \(pid \d+\): sleep 1000\nUse the process tool with id "1"/);
    expect(id).toBe("1");
    expect(await processCall({ action: "list" })).toMatch(/^1\tpid \d+\trunning\t\d+ s\tsleep 1000$/);
  });

  it("write sends input, and wait returns once the process exits, with its output", async () => {
    const { id } = await start('read -r line; echo "got $line"');
    expect(await processCall({ action: "write", id, input: "hello\n" })).toBe(
      `Sent 6 bytes to process ${id}. Use read or wait to see its answer.`,
    );
    expect(await processCall({ action: "wait", id, timeout: 10 })).toMatch(
      /^Process 1 \(exited with code 0, pid \d+\): read -r line; echo "got \$line"\ngot hello\n$/,
    );
  });

  it("read returns only the output not read before", async () => {
    const { id } = await start("echo one; read -r _; echo two");
    await processCall({ action: "write", id, input: "\n" });
    await processCall({ action: "wait", id, timeout: 10 });
    expect(await processCall({ action: "read", id })).toMatch(/\(no new output\)$/);
  });

  it("shows the tail of a lot of new output and names the log file that has all of it", async () => {
    const { id } = await start("seq 1 10000");
    const text = await processCall({ action: "wait", id, timeout: 10 });
    const logPath = background.get(id).logPath;
    expect(text).toMatch(/^Process 1 \(exited with code 0, pid \d+\): seq 1 10000\n8001\n8002\n/);
    expect(
      text.endsWith(
        `10000\n[Output truncated: showing lines 8001-10000 of 10000 (9.8 KB of 47.7 KB). Full output: ${logPath}]`,
      ),
    ).toBe(true);
    expect(readFileSync(logPath, "utf8").split("\n")).toHaveLength(10001);
  });

  it("wait gives up after its timeout and says the process is still running", async () => {
    const { id } = await start("sleep 1000");
    const started = Date.now();
    const text = await processCall({ action: "wait", id, timeout: 0.2 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(text).toMatch(
      /^Process 1 \(running, pid \d+\): sleep 1000\n\(no new output\)\n\[Still running after waiting 0\.2 s\.\]$/,
    );
  });

  it("kill stops the process and everything it started", async () => {
    const marker = randomBytes(6).toString("hex");
    const { id } = await start(`export KEEL_TEST_MARKER=${marker}; sleep 1000 & setsid sleep 1000 & wait`);
    const pid = background.get(id).pid!;
    expect(await processCall({ action: "kill", id })).toMatch(
      /^Process 1 \(killed, pid \d+\): .*\n\[Killed, with every process it started\.\]$/s,
    );
    expect(processesWithEnv("KEEL_TEST_MARKER", marker)).toEqual([]);
    expect(groupMembers(pid)).toEqual([]);
  });

  it("killAll, run when the session ends, leaves no background process running", async () => {
    const marker = randomBytes(6).toString("hex");
    await start(`export KEEL_TEST_MARKER=${marker}; sleep 1000`);
    await start(`export KEEL_TEST_MARKER=${marker}; trap '' TERM; sleep 1000`);
    await background.killAll();
    expect(processesWithEnv("KEEL_TEST_MARKER", marker)).toEqual([]);
    expect(background.list().every((p) => p.exit !== undefined)).toBe(true);
  });

  it("refuses to start more than the configured number at once", async () => {
    for (let i = 0; i < 3; i++) await start("sleep 1000");
    await expect(start("sleep 1000")).rejects.toThrow(
      "3 background processes are already running (the limit is 3). Stop one with process({ action: " +
        '"kill", id }) first.',
    );
  });

  it("accepts a numeric id", () => {
    expect(ProcessParams.parse({ action: "read", id: 2 }).id).toBe("2");
  });

  it("lists nothing with a hint when none was started", async () => {
    expect(await processCall({ action: "list" })).toBe(
      "No background processes. Start one with bash({ command, background: true }).",
    );
  });

  it("explains an unknown id, a missing id, missing input, and input to an exited process", async () => {
    const { id } = await start("true");
    await processCall({ action: "wait", id, timeout: 10 });
    await expect(processCall({ action: "read", id: "9" })).rejects.toThrow(
      'There is no background process "9". Known: 1 (exited with code 0). Use process({ action: "list" }) to see them.',
    );
    await expect(processCall({ action: "kill" })).rejects.toThrow(
      'The "kill" action needs the id of a background process; process({ action: "list" }) shows them.',
    );
    await expect(processCall({ action: "write", id })).rejects.toThrow(
      'The "write" action needs input: the text to send (add "\\n" to end a line).',
    );
    await expect(processCall({ action: "write", id, input: "x" })).rejects.toThrow(
      "Background process 1 has exited with code 0; it cannot take input any more.",
    );
  });
});
