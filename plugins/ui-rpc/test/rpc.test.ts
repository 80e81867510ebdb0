/**
 * `keel --mode rpc` through the real binary, driven by the typed client as another program would: a full
 * scripted run, every command, a malformed line, a U+2028 inside a prompt, a question answered by the client,
 * and the process ending when its input closes or its parent goes.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type Message } from "@keel/extensions-api";
import { RPC_COMMANDS, RpcClient, RpcError, type RpcEvent } from "@keel/rpc-client";
import { afterEach, describe, expect, it } from "vitest";
import { KEEL_BIN, keelEnv, SCRIPTED, type KeelEnv } from "../../../test/support/keel-cli.ts";
import { isAlive } from "../../../test/support/processes.ts";
import { until } from "../../../test/support/until.ts";

const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) {
    client.child?.kill("SIGKILL");
  }
});

function start(env: KeelEnv, extra: string[] = []): RpcClient {
  const client = RpcClient.spawn({
    command: process.execPath,
    args: [KEEL_BIN, ...SCRIPTED, ...extra],
    cwd: env.cwd,
    env: { ...process.env, KEEL_HOME: env.home },
  });
  clients.push(client);
  return client;
}

const types = (events: RpcEvent[]) => events.map((e) => e.type);
const texts = (messages: Message[]) => messages.map((m) => `${m.role}: ${textOf(m)}`);

/** Resolves when `condition` holds, checking on each turn of the event loop (no fixed delay). */
describe("keel --mode rpc", () => {
  it("plays a whole scripted run: events stream as lines, the tool runs, the history is complete", async () => {
    const env = keelEnv({
      files: { "notes.txt": "the answer is 42\n" },
      script: [
        { thinking: "I should read it.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
        { text: "It says 42." },
      ],
    });
    const client = start(env);
    const events = await client.run("what do my notes say?");
    const lifecycle = types(events).filter((t) => t.startsWith("session_") || t.startsWith("agent_"));
    expect(lifecycle).toEqual(["session_start", "agent_start", "agent_end"]);
    expect(types(events)).toEqual(expect.arrayContaining(["message_update", "tool_execution_start", "turn_end"]));
    const deltas = events.flatMap((e) => (e.type === "message_update" ? [e.delta] : []));
    expect(deltas.some((d) => d.type === "thinking_delta")).toBe(true);
    expect(deltas.every((d) => !("partial" in d))).toBe(true);
    const toolEnd = events.find((e) => e.type === "tool_execution_end");
    expect(toolEnd && toolEnd.type === "tool_execution_end" && textOf(toolEnd.result)).toContain("the answer is 42");
    const { messages } = await client.request({ type: "get_messages" });
    expect(texts(messages).at(-1)).toBe("assistant: It says 42.");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(await client.close()).toBe(0);
    expect(client.stray).toEqual([]);
  });

  it("adds what a tool renders itself to its events, as plain lines", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "echo rendered" } }] }, { text: "done" }],
    });
    const client = start(env, ["--permission-mode", "full"]);
    const events = await client.run("run it");
    const started = events.find((e) => e.type === "tool_execution_start");
    expect(started?.rendered).toEqual(["$ echo rendered"]);
    expect(events.find((e) => e.type === "agent_start")?.rendered).toBeUndefined();
    expect(await client.close()).toBe(0);
  });

  it("answers state, models, thinking and model requests", async () => {
    const env = keelEnv({ script: [{ text: "hi" }] });
    const client = start(env);
    const state = await client.request({ type: "get_state" });
    expect(state).toMatchObject({ isRunning: false, cwd: env.cwd, messageCount: 0, thinking: null });
    expect(state.model?.provider).toBe("scripted");
    const { models } = await client.request({ type: "get_models" });
    expect(models.map((m) => m.provider)).toContain("scripted");
    const model = await client.request({ type: "set_model", provider: "scripted", modelId: models[0]!.id });
    expect(model.id).toBe(models[0]!.id);
    await expect(client.request({ type: "set_model", provider: "nobody", modelId: "x" })).rejects.toThrow(RpcError);
    expect(await client.request({ type: "set_thinking", level: "high" })).toEqual({ level: "high" });
    expect((await client.request({ type: "get_state" })).thinking).toBe("high");
    expect(await client.request({ type: "set_thinking", level: null })).toEqual({ level: null });
    expect(await client.close()).toBe(0);
  });

  it("steers and queues a follow-up while a run goes, and refuses a bare prompt then", async () => {
    const env = keelEnv({
      script: [
        { text: "working on it, slowly", delayMs: 40, chunkSize: 2 },
        { text: "saw the steer" },
        { text: "did the follow-up" },
      ],
    });
    const client = start(env);
    const end = client.waitForEvent("agent_end");
    const firstDelta = client.waitForEvent("message_update");
    await client.request({ type: "prompt", message: "start" });
    await firstDelta;
    await expect(client.request({ type: "prompt", message: "again" })).rejects.toThrow(/streamingBehavior/);
    await client.request({ type: "steer", message: "steered" });
    await client.request({ type: "prompt", message: "then this", streamingBehavior: "followUp" });
    await end;
    const { messages } = await client.request({ type: "get_messages" });
    expect(texts(messages)).toEqual([
      "user: start",
      "assistant: working on it, slowly",
      "user: steered",
      "assistant: saw the steer",
      "user: then this",
      "assistant: did the follow-up",
    ]);
    await client.request({ type: "follow_up", message: "queued while idle" });
    expect(await client.close()).toBe(0);
  });

  it("aborts a run that hangs and answers once it stopped", async () => {
    const env = keelEnv({ script: [{ text: "never ends", hang: true }] });
    const client = start(env);
    const delta = client.waitForEvent("message_update");
    await client.request({ type: "prompt", message: "go" });
    await delta;
    const end = client.waitForEvent("agent_end");
    expect(await client.request({ type: "abort" })).toBeNull();
    expect((await end).reason).toBe("aborted");
    expect((await client.request({ type: "get_state" })).isRunning).toBe(false);
    expect(await client.close()).toBe(0);
  });

  it("lists and runs commands, and compacts", async () => {
    const env = keelEnv({ script: [{ text: "one" }, { text: "summary of it all" }, { text: "two" }] });
    const client = start(env);
    const { commands } = await client.request({ type: "get_commands" });
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(["/tree", "/compact"]));
    await client.run("hello");
    const notice = client.waitForEvent("notice");
    expect(await client.request({ type: "run_command", command: "/name my session" })).toBeNull();
    expect((await notice).message).toContain("my session");
    await expect(client.request({ type: "run_command", command: "/nothing-here" })).rejects.toThrow(
      /no plugin offers \/nothing-here; get_commands/,
    );
    const compacted = await client.request({ type: "compact", customInstructions: "keep it short" });
    expect(compacted).toMatchObject({ tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) });
    const { messages } = await client.request({ type: "get_messages" });
    expect(messages[0]).toMatchObject({ role: "user", kind: "compaction_summary" });
    expect(textOf(messages[0]!)).toContain("summary of it all");
    expect(await client.close()).toBe(0);
  });

  it("starts, switches, forks and walks sessions through the session store", async () => {
    const env = keelEnv({ script: [{ text: "first answer" }, { text: "second answer" }, { text: "third" }] });
    const client = start(env);
    await client.run("first");
    const first = (await client.request({ type: "get_state" })).sessionId;
    const { sessionId: second } = await client.request({ type: "new_session" });
    expect(second).not.toBe(first);
    expect((await client.request({ type: "get_messages" })).messages).toEqual([]);
    await client.run("second");
    expect(await client.request({ type: "switch_session", sessionPath: first })).toEqual({ sessionId: first });
    expect(texts((await client.request({ type: "get_messages" })).messages)).toEqual([
      "user: first",
      "assistant: first answer",
    ]);
    const tree = await client.request({ type: "get_tree" });
    expect(tree.sessionId).toBe(first);
    expect(tree.entries.map((e) => e.kind)).toEqual(["user", "assistant"]);
    const forked = await client.request({ type: "fork", entryId: tree.entries[0]!.id });
    expect(forked.sessionId).not.toBe(first);
    expect(texts((await client.request({ type: "get_messages" })).messages)).toEqual(["user: first"]);
    await expect(client.request({ type: "switch_session", sessionPath: "no-such" })).rejects.toThrow(
      /no session with that id/,
    );
    expect(await client.close()).toBe(0);
  });

  it("answers a malformed line with an error and keeps serving", async () => {
    const client = start(keelEnv({ script: [{ text: "hi" }] }));
    client.sendLine("{this is not json");
    expect(await client.nextOrphan()).toMatchObject({ type: "response", command: "parse", success: false });
    client.sendLine(JSON.stringify({ id: "x1", type: "no_such_command" }));
    const unknown = await client.nextOrphan();
    expect(unknown).toMatchObject({ id: "x1", command: "no_such_command", success: false });
    expect(!unknown.success && unknown.error).toContain("the commands are prompt, steer");
    await expect(client.request({ type: "set_model", provider: "" } as never)).rejects.toThrow(
      /invalid set_model request/,
    );
    expect((await client.request({ type: "get_state" })).isRunning).toBe(false);
    expect(await client.close()).toBe(0);
    expect(client.stray).toEqual([]);
  });

  it("keeps a U+2028 and a U+2029 inside a prompt: lines end at LF only", async () => {
    const client = start(keelEnv({ script: [{ text: "got it" }] }));
    const prompt = "one\u2028two\u2029three";
    await client.run(prompt);
    const { messages } = await client.request({ type: "get_messages" });
    expect(textOf(messages[0]!)).toBe(prompt);
    expect(messages).toHaveLength(2);
    expect(await client.close()).toBe(0);
  });

  it("asks the client what a plugin asks: the permission prompt's answer runs the call", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch approved" } }] }, { text: "done" }],
    });
    const client = start(env);
    const asked: string[] = [];
    client.onUiRequest((request) => {
      asked.push(`${request.method}: ${request.title}`);
      return request.method === "select" ? { value: request.options[0]! } : { cancelled: true };
    });
    const events = await client.run("make the file");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^select: Allow bash/);
    expect(existsSync(join(env.cwd, "approved"))).toBe(true);
    const decision = events.find((e) => e.type === "permission_decision");
    expect(decision).toMatchObject({ decision: "allow", by: "user", asked: true });
    expect(await client.close()).toBe(0);
  });

  it("refuses an answer that fits no question, and a cancelled question denies the call", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch denied" } }] }, { text: "done" }],
    });
    const client = start(env);
    client.onUiRequest(() => ({ cancelled: true }));
    client.sendLine(JSON.stringify({ type: "extension_ui_response", id: "ui-999", value: "x" }));
    const refused = await client.nextOrphan();
    expect(!refused.success && refused.error).toContain('no question with id "ui-999"');
    await client.run("make the file");
    expect(existsSync(join(env.cwd, "denied"))).toBe(false);
    expect(await client.close()).toBe(0);
  });

  it("refuses an answer that does not fit its question, and the question keeps waiting", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch second-try" } }] }, { text: "done" }],
    });
    const client = start(env);
    client.onUiRequest((request) => {
      client.sendLine(JSON.stringify({ type: "extension_ui_response", id: request.id, value: "Perhaps" }));
      return request.method === "select" ? { value: request.options[0]! } : { cancelled: true };
    });
    const refused = client.nextOrphan();
    await client.run("make the file");
    const response = await refused;
    expect(!response.success && response.error).toMatch(/a select is answered with "value": one of \["Allow once"/);
    expect(existsSync(join(env.cwd, "second-try"))).toBe(true);
    expect(await client.close()).toBe(0);
  });

  it("ends when its input closes, aborting the run that goes", async () => {
    const client = start(keelEnv({ script: [{ text: "forever", hang: true }] }));
    const delta = client.waitForEvent("message_update");
    await client.request({ type: "prompt", message: "go" });
    await delta;
    expect(await client.close()).toBe(0);
  });

  it("ends when its parent goes, even while its input stays open", async () => {
    const env = keelEnv({ script: [{ text: "hi" }] });
    writeFileSync(join(env.cwd, "run.sh"), `"${process.execPath}" "${KEEL_BIN}" --mode rpc <&0 &\necho $!\nwait\n`);
    // The test holds the pipe to keel's input open; only the parent shell goes.
    // bash: dash gives a background job /dev/null as its input even when told `<&0`.
    const parent = spawn("bash", ["run.sh"], {
      cwd: env.cwd,
      env: { ...process.env, KEEL_HOME: env.home },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    parent.stdout.on("data", (d) => (out += d));
    await until(() => /^\d+\n/.test(out));
    const pid = Number(out.split("\n")[0]);
    const rpc = new RpcClient(parent.stdin, parent.stdout);
    expect((await rpc.request({ type: "get_state" })).isRunning).toBe(false);
    parent.kill("SIGKILL");
    await until(() => !isAlive(pid));
    parent.stdin.end();
  });
});

describe("docs/rpc.md", () => {
  it("describes every command of the catalog", () => {
    const doc = readFileSync(join(import.meta.dirname, "../../../docs/rpc.md"), "utf8");
    for (const command of Object.keys(RPC_COMMANDS)) expect(doc).toContain(`| \`${command}\` |`);
  });
});
