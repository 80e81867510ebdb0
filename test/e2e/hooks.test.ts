/**
 * Command hooks through the real binary against the mock LLM server: an exit-2 PreToolUse hook's reason is in
 * the next request the model gets and in the `--mode json` events; a project's hooks run only once the user
 * trusts the folder.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keelEnv, runKeel, type KeelEnv } from "../support/keel-cli.ts";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";

const blockTouch = {
  hooks: {
    PreToolUse: [
      { matcher: "Bash", hooks: [{ type: "command", command: "echo 'hook: touch is frozen today' >&2; exit 2" }] },
    ],
  },
};

describe("command hooks in the keel binary", () => {
  let llm: MockLlm;
  beforeAll(async () => {
    llm = await startMockLlm();
  });
  afterAll(() => llm.close());

  function run(env: KeelEnv, extra: string[] = []) {
    llm.push(
      { reply: { toolCalls: [{ name: "bash", arguments: { command: "touch a.txt" } }] } },
      { reply: { text: "understood" } },
    );
    const args = [
      "-p",
      "make a file",
      "--mode",
      "json",
      "--provider",
      "openai",
      "--model",
      "gpt-4.1-mini",
      "--permission-mode",
      "full",
      ...extra,
    ];
    return runKeel(args, env, {
      extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" },
      timeoutMs: 60_000,
    });
  }

  it(
    "exit 2 blocks the call; the model reads the reason in its next request and --mode json shows " + "the block",
    async () => {
      const env = keelEnv();
      const before = llm.requests.length;
      const result = await run(env, ["--settings", JSON.stringify(blockTouch)]);
      expect(result.code).toBe(0);
      expect(existsSync(join(env.cwd, "a.txt"))).toBe(false);
      const next = llm.requests[before + 1]!;
      expect(JSON.stringify(next.body.messages.at(-1))).toContain("hook: touch is frozen today");
      const events = result.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(events.filter((e) => e.type === "guard_blocked").map((e) => [e.hook, e.reason])).toEqual([
        ["tool_call", "hook: touch is frozen today"],
      ]);
    },
  );

  it("an untrusted project's hooks never run; once trusted they do", async () => {
    const env = keelEnv();
    const marker = join(env.home, "project-hook-ran");
    const project = {
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }], ...blockTouch.hooks },
    };
    mkdirSync(join(env.cwd, ".keel"), { recursive: true });
    writeFileSync(join(env.cwd, ".keel", "settings.json"), JSON.stringify(project));
    const untrusted = await run(env);
    expect(untrusted.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(env.cwd, "a.txt"))).toBe(true);
    expect(untrusted.stderr).toContain("hooks");

    const trusted = await run(env, ["--trust"]);
    expect(trusted.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(trusted.stdout).toContain("hook: touch is frozen today");
  });

  it(
    "SessionEnd says how the session ended: prompt_input_exit when the user leaves the chat, other " + "after -p",
    async () => {
      const env = keelEnv();
      const out = join(env.home, "ends.jsonl");
      const settings = {
        hooks: { SessionEnd: [{ hooks: [{ type: "command", command: `cat >> ${out}; echo >> ${out}` }] }] },
      };
      const common = ["--provider", "openai", "--model", "gpt-4.1-mini", "--settings", JSON.stringify(settings)];
      const extraEnv = { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" };
      llm.push({ reply: { text: "hello there" } });
      const chat = await runKeel(common, env, { extraEnv, input: "hi\n/exit\n", timeoutMs: 60_000 });
      expect(chat.code).toBe(0);
      llm.push({ reply: { text: "done" } });
      const print = await runKeel(["-p", "hi", ...common], env, { extraEnv, timeoutMs: 60_000 });
      expect(print.code).toBe(0);
      const ends = readFileSync(out, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(ends.map((e) => [e.hook_event_name, e.reason])).toEqual([
        ["SessionEnd", "prompt_input_exit"],
        ["SessionEnd", "other"],
      ]);
      expect(ends.every((e) => existsSync(e.transcript_path))).toBe(true);
    },
  );
});
