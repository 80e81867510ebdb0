/**
 * The bash tool's contract: exit codes, one ordered output stream, the non-interactive environment, the
 * 2000-line / 50 KB tail with the full output in a file, cleaned text, progress, abort.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
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

const settings = BashSettingsSchema.parse({});
const bash = bashTool(settings, new BackgroundProcesses(settings));

describe.each(SHELL_PATHS)("bash, %s", (_path, longLivedShell) => {
  const ws = localWorkspace({ longLivedShell });
  afterAll(() => {
    ws.ops.close();
    rmSync(ws.root, { recursive: true, force: true });
  });

  async function run(command: string, timeout?: number) {
    const { ctx } = ws.context();
    const result = await bash.execute({ command, timeout }, ctx);
    return { result, text: textOf(result), details: result.details as BashDetails };
  }

  it("ends the result with the exit code, and a failing command is not a tool error", async () => {
    const r = await run("echo done; exit 3");
    expect(r.text).toBe("done\n\n[Exit code: 3]");
    expect(r.result.isError).toBeFalsy();
    expect(r.details).toMatchObject({ exitCode: 3, signal: null, timedOut: false, aborted: false, truncated: false });
  });

  it("says (no output) when there was none", async () => {
    expect((await run("true")).text).toBe("(no output)\n\n[Exit code: 0]");
  });

  it("names the signal when the shell was killed by one", async () => {
    expect((await run("kill -KILL $$")).text).toBe("(no output)\n\n[Killed by SIGKILL]");
  });

  it("keeps stdout and stderr in the order they were written", async () => {
    const r = await run("for i in 1 2 3; do echo out$i; echo err$i >&2; done");
    expect(r.text).toBe("out1\nerr1\nout2\nerr2\nout3\nerr3\n\n[Exit code: 0]");
  });

  it("runs in the workspace with a non-interactive environment", async () => {
    const r = await run('pwd; echo "$TERM $NO_COLOR $CI $PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT"');
    expect(r.text).toBe(`${ws.cwd}\ndumb 1 1 cat cat 0\n\n[Exit code: 0]`);
  });

  it("keeps the last 2000 lines and saves the whole output to the file the result names", async () => {
    const r = await run("seq 1 5000");
    const [shown, note] = r.text.split("\n\n");
    expect(shown!.split("\n")).toEqual(Array.from({ length: 2000 }, (_, i) => String(3001 + i)));
    expect(note).toMatch(
      new RegExp(
        String.raw`^\[Output truncated: showing lines 3001-5000 of 5000 \(9\.8 KB of 23\.3 KB\)\. ` +
          String.raw`Full output: (\S+\.log)\]\n\[Exit code: 0\]$`,
      ),
    );
    expect(note).toContain(r.details.fullOutputPath!);
    expect(r.details.fullOutputPath!.startsWith(ws.dataDir)).toBe(true);
    expect(readFileSync(r.details.fullOutputPath!, "utf8")).toBe(
      Array.from({ length: 5000 }, (_, i) => `${i + 1}\n`).join(""),
    );
  });

  it("keeps the last 50 KB when lines are long, whole lines only", async () => {
    const r = await run("for i in $(seq 1 200); do printf '%0999d\\n' $i; done");
    const shown = r.text.split("\n\n")[0]!;
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(50 * 1024);
    expect(shown.split("\n")).toHaveLength(51);
    expect(shown.endsWith("200")).toBe(true);
    expect(r.details.truncated).toBe(true);
  });

  it("writes no file when the output fits", async () => {
    const r = await run("seq 1 10");
    expect(r.details.fullOutputPath).toBeUndefined();
    expect(r.text).not.toContain("Full output");
  });

  it("strips colour escapes and keeps what a carriage-return progress bar finally shows", async () => {
    const r = await run("printf '\\033[31mred\\033[0m\\n10%%\\r50%%\\r100%%\\n'");
    expect(r.text).toBe("red\n100%\n\n[Exit code: 0]");
  });

  it("reports progress while the command runs", async () => {
    const { ctx, updates } = ws.context();
    await bash.execute({ command: "echo first; sleep 0.4; echo second" }, ctx);
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(textOf(updates[0]!)).toContain("first");
  });

  it("stops the command and everything it started when the call is aborted mid-command", async () => {
    const { ctx, updates, abort } = ws.context();
    const origin = ctx.update;
    ctx.update = (partial) => {
      origin(partial);
      if (textOf(partial).includes("ready")) abort();
    };
    const started = Date.now();
    const result = await bash.execute({ command: "sleep 1000 & echo pid=$!; echo ready; wait" }, ctx);
    const text = textOf(result);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.isError).toBe(true);
    expect(text).toMatch(/ready\n\n\[Aborted: the command and every process it started were killed\.\]$/);
    expect((result.details as BashDetails).aborted).toBe(true);
    expect(printedPids(text).filter(isAlive)).toEqual([]);
    expect(groupMembers((result.details as BashDetails).pid!)).toEqual([]);
    expect(updates.length).toBeGreaterThan(0);
  });

  it("does not start a command when the call was aborted before it ran", async () => {
    const { ctx, abort } = ws.context();
    abort();
    const result = await bash.execute({ command: `touch ${ws.cwd}/should-not-exist` }, ctx);
    expect(result.isError).toBe(true);
    expect(existsSync(`${ws.cwd}/should-not-exist`)).toBe(false);
  });

  it("uses the timeout from settings when the call gives none", async () => {
    const quick = BashSettingsSchema.parse({ timeoutSeconds: 0.3 });
    const tool = bashTool(quick, new BackgroundProcesses(quick));
    const { ctx } = ws.context();
    const result = await tool.execute({ command: "sleep 1000" }, ctx);
    expect(textOf(result)).toContain("[Timed out after 0.3 s");
  });
});

describe("bash over a long-lived shell that dies mid-command", () => {
  const ws = localWorkspace();
  afterAll(() => {
    ws.ops.close();
    rmSync(ws.root, { recursive: true, force: true });
  });

  it("says why the exit is unknown, as an error, stops what it started, and runs the next call", async () => {
    const marker = randomBytes(6).toString("hex");
    const { ctx } = ws.context();
    const command = `export KEEL_TEST_MARKER=${marker}; sleep 1000 & kill -KILL $PPID; wait`;
    const result = await bash.execute({ command }, ctx);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      new RegExp(
        String.raw`\n\n\[The shell helper \(perl, pid \d+\) ended while the command ran: it was killed by ` +
          String.raw`SIGKILL\. Every process the command started was stopped; ` +
          String.raw`the next command starts a new helper\.\]$`,
      ),
    );
    expect(processesWithEnv("KEEL_TEST_MARKER", marker)).toEqual([]);
    const next = await bash.execute({ command: "echo after" }, ws.context().ctx);
    expect(textOf(next)).toBe("after\n\n[Exit code: 0]");
  });
});
