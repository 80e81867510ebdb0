/**
 * The ssh backend through the real binary, against an sshd on 127.0.0.1 that this file starts (one for all):
 * a scripted session writes, edits and reads a file and runs bash on the remote root while the local folder
 * stays untouched; `keel -c` goes back to the recorded remote whatever the settings say then; grep uses the
 * remote ripgrep; a command's background children survive neither the call nor keel's exit; an sshd killed
 * in the middle of a command gives the tool result a clear error and the run goes on.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { processesWithEnv } from "@keel/testing/ops-conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keelEnv, runKeel, type KeelEnv } from "../support/keel-cli.ts";
import { startSshd, type Sshd } from "../support/sshd.ts";

let sshd: Sshd;
beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(() => sshd.stop());

interface ToolEnd {
  tool: string;
  isError: boolean;
  text: string;
}

/** A new remote root in the server's folder. */
function remoteRoot(): string {
  const root = join(sshd.dir, `root-${randomBytes(4).toString("hex")}`);
  mkdirSync(root);
  return root;
}

/** Runs `keel -p` on the ssh backend over `root`, the model playing one turn per entry of `turns`. */
async function play(env: KeelEnv, root: string, turns: unknown[], extra: string[] = []) {
  writeFileSync(join(env.cwd, "turns.json"), JSON.stringify(turns));
  const settings = { ops: "ssh", "ops-ssh": sshd.settings(root), "provider-scripted": { script: "turns.json" } };
  const run = await runKeel(
    [
      "-p",
      "go",
      "--mode",
      "json",
      "--provider",
      "scripted",
      "--permission-mode",
      "full",
      "--settings",
      JSON.stringify(settings),
      ...extra,
    ],
    env,
    { timeoutMs: 60_000 },
  );
  const events = run.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
  const results: ToolEnd[] = events
    .filter((e) => e.type === "tool_execution_end")
    .map((e) => ({ tool: e.toolName, isError: e.isError, text: String(e.result.content[0]?.text ?? "") }));
  const end = events.find((e) => e.type === "agent_end");
  return { run, results, reason: end?.reason as string | undefined };
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });

describe("the ssh backend through the keel binary", () => {
  it("writes, edits and reads a file and runs bash on the remote root; the local folder is untouched", async () => {
    const env = keelEnv();
    const root = remoteRoot();
    const { run, results, reason } = await play(env, root, [
      call("write", { path: "notes/todo.txt", content: "one\ntwo\n" }),
      call("edit", { path: "notes/todo.txt", edits: [{ oldText: "two", newText: "three" }] }),
      call("read", { path: "notes/todo.txt" }),
      call("bash", { command: "pwd; cat notes/todo.txt; exit 3" }),
      call("grep", { pattern: "thr.e" }),
      { text: "done" },
    ]);
    expect(run.stderr).toBe("");
    expect(reason).toBe("stop");
    expect(results.map((r) => [r.tool, r.isError])).toEqual([
      ["write", false],
      ["edit", false],
      ["read", false],
      ["bash", false],
      ["grep", false],
    ]);
    expect(results[2]!.text).toContain("one\nthree");
    expect(results[3]!.text).toBe(`${root}\none\nthree\n\n[Exit code: 3]`);
    expect(results[4]!.text).toContain("notes/todo.txt:2: three");
    expect(readFileSync(join(root, "notes/todo.txt"), "utf8")).toBe("one\nthree\n");
    expect(readdirSync(env.cwd)).toEqual(["turns.json"]);
  });

  it("resumes with -c against the remote root the session recorded, though the settings name another", async () => {
    const env = keelEnv();
    const first = remoteRoot();
    await play(env, first, [call("write", { path: "a.txt", content: "first\n" }), { text: "done" }]);
    const other = remoteRoot();
    const { results } = await play(env, other, [call("bash", { command: "pwd; cat a.txt" }), { text: "done" }], ["-c"]);
    expect(results[0]!.text).toBe(`${first}\nfirst\n\n[Exit code: 0]`);
    expect(readdirSync(other)).toEqual([]);
  });

  it("leaves no background child of a command alive after the call, nor a background process after exit", async () => {
    const env = keelEnv();
    const marker = randomBytes(6).toString("hex");
    const { results } = await play(env, remoteRoot(), [
      call("bash", { command: `export KEEL_TEST_MARKER=${marker}; sleep 1000 & setsid sleep 1000 & echo started` }),
      call("bash", { command: `export KEEL_TEST_MARKER=${marker}; sleep 1000 & wait`, background: true }),
      { text: "done" },
    ]);
    expect(results[0]!.text).toBe("started\n\n[Exit code: 0]");
    expect(results[1]!.text).toMatch(/^Started background process 1/);
    expect(processesWithEnv("KEEL_TEST_MARKER", marker)).toEqual([]);
  });

  it("gives a clear error when sshd dies in the middle of a command, and the run goes on", async () => {
    const env = keelEnv();
    const root = remoteRoot();
    const marker = randomBytes(6).toString("hex");
    const running = play(env, root, [
      call("bash", { command: `export KEEL_TEST_MARKER=${marker}; touch started; sleep 1000` }),
      call("read", { path: "started" }),
      { text: "carried on" },
    ]);
    try {
      while (!existsSync(join(root, "started"))) await new Promise((resolve) => setTimeout(resolve, 20));
      await sshd.crash();
      const { run, results, reason } = await running;
      expect(run.code).toBe(0);
      expect(reason).toBe("stop");
      expect(results[0]!.isError).toBe(true);
      expect(results[0]!.text).toMatch(/\[The SSH connection to .*127\.0\.0\.1:\d+ was lost .* while .*sleep 1000/);
      expect(results[0]!.text).toContain('sleep 1000" ran; the remote host may still run it.]');
      expect(results[1]!.isError).toBe(true);
      expect(results[1]!.text).toMatch(/Could not connect to .*127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    } finally {
      await sshd.restart();
      for (const pid of processesWithEnv("KEEL_TEST_MARKER", marker)) process.kill(pid, "SIGKILL");
    }
  });
});
