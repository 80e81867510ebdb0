/**
 * Sessions through the real `keel` binary against the mock LLM server: continuing, resuming by id, listing,
 * and a keel killed with SIGKILL mid-run whose session continues with nothing complete lost.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEEL_BIN, keelEnv, runKeel, type KeelEnv } from "../support/keel-cli.ts";
import { startMockLlm, type MockLlm } from "../support/mock-llm/index.ts";

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

  it("--session <id prefix> resumes that session, --no-session keeps nothing, keel sessions lists newest first", async () => {
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
  });

  it("after keel is killed with SIGKILL mid-run, keel -c continues with every complete message", async () => {
    const env = keelEnv({ files: { "notes.txt": "the launch code is 0000\n" } });
    const first = llm.requests.length;
    llm.push({ reply: { text: "Reading.", toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }] } }, { reply: { text: "The code is" }, fault: { kind: "hang", afterEvents: 2 } });
    const child = spawn(process.execPath, [KEEL_BIN, "-p", "What is in notes.txt?", ...model], { cwd: env.cwd, env: { ...process.env, KEEL_HOME: env.home, ...openai().extraEnv }, stdio: "ignore" });
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
