/**
 * Sessions through the real `keel` binary against the mock LLM server: continuing, resuming by id, listing,
 * a keel killed with SIGKILL mid-run (or before its first reply) whose session continues with nothing complete
 * lost, and damaged session files, from which `keel -c` keeps everything but the damaged line and still sends
 * a valid conversation holding the original prompt.
 */
import { spawn } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEEL_BIN, keelEnv, runKeel, type KeelEnv } from "../support/keel-cli.ts";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { tempDir } from "../support/plugin-fixtures.ts";

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(async () => llm.close());

const model = ["--provider", "openai", "--model", "gpt-4.1-mini"];
const openai = () => ({ extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-e2e" } });
const bodyOf = (n: number) => JSON.stringify(llm.requests[n]!.body);

async function ask(env: KeelEnv, prompt: string, reply: string, extra: string[] = []) {
  llm.push({ reply: { text: reply } });
  const run = await runKeel(["-p", prompt, ...model, ...extra], env, openai());
  expect(run.stderr).toBe("");
  expect(run).toMatchObject({ code: 0, stdout: `${reply}\n` });
  return llm.requests.length - 1;
}

async function listed(env: KeelEnv): Promise<{ id: string; entries: number; firstPrompt: string }[]> {
  const run = await runKeel(["sessions", "--json"], env);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe("sessions in the keel binary", () => {
  it("keel -c continues the latest session of this folder: the model sees the earlier conversation", async () => {
    const env = keelEnv();
    await ask(env, "Remember the word pelican.", "Noted: pelican.");
    const second = await ask(env, "Which word?", "It was pelican.", ["-c"]);
    expect(bodyOf(second)).toContain("Remember the word pelican.");
    expect(bodyOf(second)).toContain("Noted: pelican.");
    expect(await listed(env)).toMatchObject([{ entries: 4, firstPrompt: "Remember the word pelican." }]);
  });

  it(
    "--session <id prefix> resumes that session, --no-session keeps nothing, keel sessions lists " + "newest first",
    async () => {
      const env = keelEnv();
      await ask(env, "Session one: apples.", "apples");
      await ask(env, "Session two: pears.", "pears");
      await ask(env, "Not saved.", "ok", ["--no-session"]);
      const sessions = await listed(env);
      expect(sessions.map((s) => s.firstPrompt)).toEqual(["Session two: pears.", "Session one: apples."]);

      const request = await ask(env, "Which fruit?", "apples", ["--session", sessions[1]!.id.slice(0, 8)]);
      expect(bodyOf(request)).toContain("Session one: apples.");
      expect(bodyOf(request)).not.toContain("pears");
      const table = await runKeel(["sessions"], env);
      expect(table.stdout.split("\n")[0]).toMatch(/^LAST USE\s+ENTRIES\s+SIZE\s+ID\s+NAME\s+FIRST PROMPT$/);
      expect(table.stdout.split("\n")[1]).toMatch(/\s4\s.*Session one: apples\.$/);
    },
  );

  it("after keel is killed with SIGKILL mid-run, keel -c continues with every complete message", async () => {
    const env = keelEnv({ files: { "notes.txt": "the launch code is 0000\n" } });
    const first = llm.requests.length;
    llm.push(
      { reply: { text: "Reading.", toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] } },
      { reply: { text: "The code is" }, fault: { kind: "hang", afterEvents: 2 } },
    );
    const child = spawn(process.execPath, [KEEL_BIN, "-p", "What is in notes.txt?", ...model], {
      cwd: env.cwd,
      env: { ...process.env, KEEL_HOME: env.home, ...openai().extraEnv },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // The second request means the tool ran and its result was recorded; keel now waits on a stream that never ends.
    while (llm.requests.length < first + 2) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGKILL");
    await exited;

    const resumed = await ask(env, "Say it again.", "It is 0000.", ["-c"]);
    expect(bodyOf(resumed)).toContain("What is in notes.txt?");
    expect(bodyOf(resumed)).toContain("the launch code is 0000");
    expect(bodyOf(resumed)).toContain("call_1");
  });
});

const PROMPT = "Summarise the six files, please.";

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

/** The only session file of `env`. */
function sessionFile(env: KeelEnv): string {
  const root = join(env.home, "sessions");
  const [folder] = readdirSync(root);
  const file = readdirSync(join(root, folder!)).find((name) => name.endsWith(".jsonl"))!;
  return join(root, folder!, file);
}

/** A session of 14 entries made by the binary: the prompt, six read calls and results, and an answer. */
async function fourteenEntrySession(): Promise<KeelEnv> {
  const files = Object.fromEntries(
    Array.from({ length: 6 }, (_, i) => [`f${i + 1}.txt`, `content of file ${i + 1}\n`]),
  );
  const env = keelEnv({ files });
  for (let i = 1; i <= 6; i++)
    llm.push({ reply: { toolCalls: [{ id: `call_${i}`, name: "read", arguments: { path: `f${i}.txt` } }] } });
  llm.push({ reply: { text: "All six are short." } });
  const run = await runKeel(["-p", PROMPT, ...model], env, openai());
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(readFileSync(sessionFile(env), "utf8").trim().split("\n")).toHaveLength(15);
  return env;
}

/** `env` with a copy of its KEEL_HOME whose session file has entry `at` (1-based) changed by `damage`. */
function damagedCopy(env: KeelEnv, at: number, damage: (line: string) => string): KeelEnv {
  const copy = { cwd: env.cwd, home: join(tempDir("keel-damaged-"), "home") };
  cpSync(env.home, copy.home, { recursive: true });
  const file = sessionFile(copy);
  const lines = readFileSync(file, "latin1").split("\n");
  lines[at] = damage(lines[at]!);
  writeFileSync(file, lines.join("\n"), "latin1");
  return copy;
}

/** Runs `keel -c` and returns the messages its request sent, without the system prompt. */
async function resumedRequest(env: KeelEnv): Promise<{ messages: WireMessage[]; stderr: string }> {
  llm.push({ reply: { text: "Resumed." } });
  const run = await runKeel(["-p", "And the first one?", "-c", ...model], env, openai());
  expect(run).toMatchObject({ code: 0, stdout: "Resumed.\n" });
  const messages = (llm.requests.at(-1)!.body.messages as WireMessage[]).filter((m) => m.role !== "system");
  return { messages, stderr: run.stderr };
}

/** Every tool result answers a call of the assistant message before it, and the conversation opens with the user. */
function expectValid(messages: WireMessage[]): void {
  expect(messages[0]!.role).toBe("user");
  for (const [i, message] of messages.entries()) {
    if (message.role !== "tool") continue;
    const call = messages
      .slice(0, i)
      .reverse()
      .find((m) => m.role === "assistant");
    expect(call?.tool_calls?.map((c) => c.id)).toContain(message.tool_call_id);
  }
}

const roles = (messages: WireMessage[]) =>
  messages.map((m) => (m.role === "assistant" && m.tool_calls ? "call" : m.role)).join(" ");

describe("damaged session files and early kills, through the keel binary", () => {
  let env: KeelEnv;
  beforeAll(async () => {
    env = await fourteenEntrySession();
  }, 60_000);

  it("a garbage line in the middle (an assistant call) loses only that call and its result", async () => {
    const { messages, stderr } = await resumedRequest(damagedCopy(env, 6, () => "{garbage"));
    expect(stderr).toMatch(/skipped an unreadable line at byte \d+ \(not JSON\)/);
    expect(messages[0]).toMatchObject({ role: "user", content: PROMPT });
    expect(roles(messages)).toBe("user call tool call tool call tool call tool call tool assistant user");
    const text = JSON.stringify(messages);
    for (const n of [1, 2, 4, 5, 6]) expect(text).toContain(`content of file ${n}`);
    expect(text).not.toContain("content of file 3");
    expectValid(messages);
  });

  it("an invalid UTF-8 line in the middle (a tool result) loses only that result, answered as missing", async () => {
    const { messages } = await resumedRequest(damagedCopy(env, 7, () => "\xff\xfe\xc3("));
    expect(messages[0]).toMatchObject({ role: "user", content: PROMPT });
    expect(roles(messages)).toBe("user call tool call tool call tool call tool call tool call tool assistant user");
    const text = JSON.stringify(messages);
    expect(text).not.toContain("content of file 3");
    expect(text).toContain("No result was recorded for this call");
    expectValid(messages);
  });

  it("a last line whose parentId names no entry keeps every entry", async () => {
    const { messages, stderr } = await resumedRequest(
      damagedCopy(env, 14, (line) => line.replace(/"parentId":"[^"]+"/, '"parentId":"gone"')),
    );
    expect(stderr).toContain("names a parent gone that is not an earlier readable entry");
    expect(messages[0]).toMatchObject({ role: "user", content: PROMPT });
    expect(roles(messages)).toBe("user call tool call tool call tool call tool call tool call tool assistant user");
    expectValid(messages);
  });

  it("a damaged first prompt is replaced by a note, so the request still opens with the user", async () => {
    const { messages } = await resumedRequest(damagedCopy(env, 1, () => "not json at all"));
    expect(messages[0]).toMatchObject({
      role: "user",
      content: expect.stringContaining("could not be read from the session file"),
    });
    expect(roles(messages)).toBe("user call tool call tool call tool call tool call tool call tool assistant user");
    expectValid(messages);
  });

  it("the prompt survives a kill -9 before the first reply completes, and keel -c sends it again", async () => {
    const fresh = keelEnv();
    const first = llm.requests.length;
    llm.push({ reply: { text: "I will never finish this" }, fault: { kind: "hang", afterEvents: 1 } });
    const child = spawn(process.execPath, [KEEL_BIN, "-p", "Remember the word heron.", ...model], {
      cwd: fresh.cwd,
      env: { ...process.env, KEEL_HOME: fresh.home, ...openai().extraEnv },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    while (llm.requests.length < first + 1) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGKILL");
    await exited;

    const { messages } = await resumedRequest(fresh);
    expect(messages).toMatchObject([
      { role: "user", content: "Remember the word heron." },
      { role: "user", content: "And the first one?" },
    ]);
  });
});
