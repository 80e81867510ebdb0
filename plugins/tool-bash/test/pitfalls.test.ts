/**
 * The shell pitfalls of issue 3, through the real bash tool on the real local backend: each call returns
 * within its timeout plus 2 s and leaves no process behind. "Behind" is checked three ways: the shell's process
 * group is empty, the pids the command printed are dead, and no process carries the marker variable the
 * command exported (which every descendant inherits, setsid or not).
 */
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { BackgroundProcesses } from "../src/background.ts";
import { bashTool } from "../src/bash-tool.ts";
import type { BashDetails } from "../src/run-foreground.ts";
import { BashSettingsSchema } from "../src/settings.ts";
import {
  groupMembers,
  isAlive,
  localWorkspace,
  printedPids,
  processesWithEnv,
  textOf,
} from "../../../test/support/processes.ts";
import { SHELL_PATHS } from "../../../test/support/shell-paths.ts";

const settings = BashSettingsSchema.parse({ maxLogBytes: 2 * 1024 * 1024 });
const bash = bashTool(settings, new BackgroundProcesses(settings));

describe.each(SHELL_PATHS)(
  "bash pitfalls, %s: each returns within its timeout + 2 s and leaves no process behind",
  (_path, longLivedShell) => {
    const ws = localWorkspace({ longLivedShell });
    afterAll(() => {
      ws.ops.close();
      rmSync(ws.root, { recursive: true, force: true });
    });

    /** Runs `command` with a marker exported first; returns the result, its text, details and elapsed time. */
    async function run(command: string, timeout?: number) {
      const marker = randomBytes(6).toString("hex");
      const { ctx } = ws.context();
      const started = Date.now();
      const result = await bash.execute({ command: `export KEEL_TEST_MARKER=${marker}\n${command}`, timeout }, ctx);
      const elapsed = Date.now() - started;
      return { result, text: textOf(result), details: result.details as BashDetails, elapsed, marker };
    }

    function expectNothingLeft(r: Awaited<ReturnType<typeof run>>) {
      expect(groupMembers(r.details.pid!)).toEqual([]);
      expect(printedPids(r.text).filter(isAlive)).toEqual([]);
      expect(processesWithEnv("KEEL_TEST_MARKER", r.marker)).toEqual([]);
    }

    it("`sleep 1000 &` then exit: returns when the shell exits, and the sleeper is killed", async () => {
      const r = await run("sleep 1000 & echo pid=$!; echo started", 5);
      expect(r.elapsed).toBeLessThan(2000);
      expect(r.text).toMatch(/^pid=\d+\nstarted\n\n\[Exit code: 0\]$/);
      expectNothingLeft(r);
    });

    it("`nohup` of a background process, then exit: the process is killed", async () => {
      const r = await run("nohup sleep 1000 >/dev/null 2>&1 & echo pid=$!", 5);
      expect(r.elapsed).toBeLessThan(2000);
      expect(r.details.exitCode).toBe(0);
      expect(printedPids(r.text)).toHaveLength(1);
      expectNothingLeft(r);
    });

    it("a server that never exits is killed at its timeout", async () => {
      const server =
        `node -e "require('http').createServer((q, s) => s.end('ok')).listen(0, ` +
        `'127.0.0.1', () => console.log('listening pid=' + process.pid))"`;
      const r = await run(server, 1);
      expect(r.elapsed).toBeLessThan(3000);
      expect(r.result.isError).toBe(true);
      expect(r.details.timedOut).toBe(true);
      expect(r.text).toContain("listening");
      expect(r.text).toContain("[Timed out after 1 s: the command and every process it started were killed.");
      expectNothingLeft(r);
    });

    it("a grandchild that left the process group with setsid is killed at the timeout", async () => {
      const r = await run("setsid sh -c 'echo pid=$$; exec sleep 1000'", 1);
      expect(r.elapsed).toBeLessThan(3000);
      expect(r.details.timedOut).toBe(true);
      expect(printedPids(r.text)).toHaveLength(1);
      expectNothingLeft(r);
    });

    it("a setsid grandchild left running after the shell exits is killed too", async () => {
      const r = await run("setsid sh -c 'exec sleep 1000' >/dev/null 2>&1 </dev/null & echo pid=$!", 5);
      expect(r.elapsed).toBeLessThan(2000);
      expect(r.details.exitCode).toBe(0);
      expectNothingLeft(r);
    });

    it("a process that traps TERM gets KILL after the grace period", async () => {
      const r = await run("trap 'echo ignoring TERM' TERM; echo pid=$$; while true; do sleep 0.1; done", 1);
      expect(r.elapsed).toBeLessThan(3000);
      expect(r.details.timedOut).toBe(true);
      expectNothingLeft(r);
    });

    it("`yes` flooding output: stopped at the timeout, tail shown, log file capped", async () => {
      // 4 s, not 1: the log must reach its 2 MB cap before the timeout, and on a loaded machine this process,
      // which drains the pipe, read less than 2 MB in 1 s.
      const r = await run("yes", 4);
      expect(r.elapsed).toBeLessThan(6000);
      expect(r.details.timedOut).toBe(true);
      expect(r.details.truncated).toBe(true);
      expect(r.text.startsWith("y\ny\ny\n")).toBe(true);
      expect(r.text).toMatch(
        /\[Output truncated: showing lines \d+-\d+ of \d+ \(\d+\.\d KB of [\d.]+ [KMG]?B\)\. Full output: .*\.log\]/,
      );
      expect(r.text).toMatch(/\[The full-output file holds the first 2097152 bytes; the rest was not kept\.\]/);
      expect(readFileSync(r.details.fullOutputPath!).length).toBe(2 * 1024 * 1024);
      expectNothingLeft(r);
    });

    it("a command reading stdin gets end of input at once instead of hanging", async () => {
      const r = await run('cat; read -r line || echo "stdin is closed"', 5);
      expect(r.elapsed).toBeLessThan(2000);
      expect(r.text).toBe("stdin is closed\n\n[Exit code: 0]");
      expectNothingLeft(r);
    });

    it("a command that asks the terminal for input fails at once: there is no terminal to wait on", async () => {
      const r = await run("read -r answer < /dev/tty", 5);
      expect(r.elapsed).toBeLessThan(2000);
      expect(r.details.exitCode).not.toBe(0);
      expect(r.text).toMatch(/\/dev\/tty: No such device or address/);
      expectNothingLeft(r);
    });

    it("a single 1 MB line: its end is shown within 50 KB and the whole line is in the file", async () => {
      const r = await run("head -c 1048575 /dev/zero | tr '\\0' x; echo END", 10);
      expect(r.elapsed).toBeLessThan(12_000);
      const [shown] = r.text.split("\n");
      expect(Buffer.byteLength(shown!)).toBe(50 * 1024);
      expect(shown!.endsWith("xEND")).toBe(true);
      expect(r.text).toContain(
        "[Output truncated: the last line alone is longer than the limit; showing its final 50.0 KB " +
          "(1.0 MB in all). Full output: ",
      );
      expect(readFileSync(r.details.fullOutputPath!, "utf8")).toBe(`${"x".repeat(1048575)}END\n`);
      expectNothingLeft(r);
    });
  },
);
