/**
 * The shared session commands in the line chat and in `keel -p`, through the real binary with the lines fed on
 * a pipe: /model switches the model the next prompt goes to, a picker is a numbered question, /resume picks an
 * earlier session of the folder, /help lists every command with its description, and where nobody can be
 * asked a command without its argument says what to pass.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv, runKeel, SCRIPTED } from "../../../test/support/keel-cli.ts";

let llm: MockLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

describe("the session commands in the line chat", () => {
  it("/model <provider>/<id> switches the model: the next prompt goes to it", async () => {
    llm = await startMockLlm([{ reply: { text: "From the mock model." } }]);
    const env = keelEnv({ script: [{ text: "From the script." }] });
    const run = await runKeel(SCRIPTED, env, {
      input: "/model openai/gpt-4.1-mini\nhello\n",
      extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("Model: openai/gpt-4.1-mini.");
    expect(run.stdout).toContain("From the mock model.");
    expect(run.stdout).not.toContain("From the script.");
    expect(llm.requests.map((r) => r.body.model)).toEqual(["gpt-4.1-mini"]);
  });

  it("asks a picker as a numbered question: /thinking, then the number typed", async () => {
    const env = keelEnv({ script: [{ text: "ok" }] });
    const run = await runKeel(SCRIPTED, env, { input: "/thinking\n5\n" });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Thinking\n {2}1\. off\n[\s\S]* {2}5\. high\nChoose 1-5: /);
    expect(run.stderr).toContain("Thinking: high.");
  });

  it("/resume picks an earlier session of the folder; the conversation goes on from it", async () => {
    const env = keelEnv({ script: [{ text: "Noted the blue door." }] });
    const first = await runKeel(SCRIPTED, env, { input: "remember the blue door\n" });
    expect(first.code).toBe(0);
    writeFileSync(join(env.cwd, "turns.json"), JSON.stringify([{ text: "It was blue." }]));
    const run = await runKeel(SCRIPTED, env, { input: "/resume\n1\nwhich colour?\n" });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Resume a session\n {2}1\. .*remember the blue door/);
    expect(run.stderr).toMatch(/Resumed session [0-9a-f]{8}\./);
    expect(run.stdout).toContain("It was blue.");
    // The second run went on in the first one's session: one session, holding both exchanges.
    const sessions = JSON.parse((await runKeel(["sessions", "--json"], env)).stdout) as unknown[];
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ entries: 4 });
  });

  it("/tree without arguments is a numbered question too: the conversation goes on from the entry picked", async () => {
    const env = keelEnv({ script: [{ text: "First answer." }, { text: "Second answer." }, { text: "Third." }] });
    const run = await runKeel(SCRIPTED, env, { input: "first question\nsecond question\n/tree\n1\nanother try\n" });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Continue from\n {2}1\. user: first question .*\n {2}2\. user: second question/);
    expect(run.stderr).toMatch(/Moved to \w+; 1 messages in context\./);
    expect(run.stdout).toContain("Third.");
  });

  it("/help lists every plugin's commands with their descriptions", async () => {
    const env = keelEnv({ script: [] });
    const run = await runKeel(SCRIPTED, env, { input: "/help\n" });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Commands:$/m);
    expect(run.stderr).toMatch(/^ {2}\/model +Pick the model \(or \/model <provider>\/<id>\)$/m);
    expect(run.stderr).toMatch(/^ {2}\/compact +/m);
    expect(run.stderr).toMatch(/^ {2}\/tree +Pick an entry to continue from/m);
  });
});

describe("the session commands where nobody can be asked", () => {
  it("keel -p /model says how to name a model; with the argument it switches", async () => {
    const env = keelEnv({ script: [] });
    const bare = await runKeel([...SCRIPTED, "-p", "/model"], env);
    expect(bare.code).toBe(0);
    expect(bare.stderr).toContain("Nothing picked; name one with /model <provider>/<id> (keel models lists them).");
    const named = await runKeel([...SCRIPTED, "-p", "/model scripted/script"], env);
    expect(named.stderr).toContain("Model: scripted/script.");
    const wrong = await runKeel([...SCRIPTED, "-p", "/model nowhere/none"], env);
    expect(wrong.stderr).toContain('/model: no installed provider serves "nowhere/none"');
  });
});
