/**
 * `keel acp` as an editor meets it: the ACP SDK's own client side drives the real binary in a child process
 * over stdio through initialize, a new session, a prompt whose tool call needs permission, a cancel, a load of
 * the session in a new process, and a switch of the permission mode.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { methods, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { keelEnv } from "../../../test/support/keel-cli.ts";
import { asEditor, initialize, type Editor } from "./editor.ts";
import { until } from "../../../test/support/until.ts";

const KEEL_VERSION = (
  JSON.parse(readFileSync(join(import.meta.dirname, "../../../package.json"), "utf8")) as { version: string }
).version;

const kinds = (editor: Editor) => editor.updates.map((u) => u.update.sessionUpdate);
/** The text of every chunk update of `kind`, joined. */
function chunks(editor: Editor, kind: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk"): string {
  return editor.updates
    .map((u) => u.update)
    .flatMap((u) => (u.sessionUpdate === kind && u.content.type === "text" ? [u.content.text] : []))
    .join("");
}

/** Resolves when `condition` holds, checking every few milliseconds (no fixed delay). */
let llm: MockLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

describe("keel acp, driven by the ACP SDK's client", () => {
  it("initializes, opens a session and runs a prompt whose tool call the editor approves", async () => {
    const env = keelEnv({
      script: [
        {
          thinking: "Write it, then touch the marker.",
          toolCalls: [
            { id: "w1", name: "write", arguments: { path: "hello.txt", content: "hi\n" } },
            { id: "b1", name: "bash", arguments: { command: "touch approved" } },
          ],
        },
        { text: "All done." },
      ],
    });
    let sessionId = "";
    const editor = await asEditor(env, async (agent) => {
      const init = await initialize(agent);
      expect(init.protocolVersion).toBe(PROTOCOL_VERSION);
      expect(init.agentCapabilities?.loadSession).toBe(true);
      // What `keel --version` says, not the ACP plugin's own version.
      expect(init.agentInfo).toEqual({ name: "keel", version: KEEL_VERSION });
      const created = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
      sessionId = created.sessionId;
      expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "auto", "full"]);
      const done = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "write hello.txt and touch the marker" }],
      });
      expect(done.stopReason).toBe("end_turn");
    });
    expect(editor.code).toBe(0);
    expect(existsSync(join(env.cwd, "approved"))).toBe(true);
    expect(chunks(editor, "agent_thought_chunk")).toBe("Write it, then touch the marker.");
    expect(chunks(editor, "agent_message_chunk")).toBe("All done.");
    expect(kinds(editor)).toContain("available_commands_update");
    const updates = editor.updates.map((u) => u.update);
    expect(updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "w1")).toMatchObject({
      kind: "edit",
      status: "pending",
      locations: [{ path: join(env.cwd, "hello.txt") }],
    });
    const writeDone = updates.find(
      (u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "w1" && u.status === "completed",
    );
    expect(writeDone?.sessionUpdate === "tool_call_update" && writeDone.content?.[0]).toEqual({
      type: "diff",
      path: join(env.cwd, "hello.txt"),
      oldText: null,
      newText: "hi\n",
    });
    expect(updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "b1")).toMatchObject({
      kind: "execute",
      // bash's own call line (Tool.render), as the terminal UI shows it.
      title: "$ touch approved",
    });
    // The permission prompt was about the bash call, with ACP kinds for its options.
    expect(editor.permissions).toHaveLength(1);
    expect(editor.permissions[0]).toMatchObject({ sessionId, toolCall: { toolCallId: "b1" } });
    expect(editor.permissions[0]!.options[0]).toMatchObject({ name: "Allow once", kind: "allow_once" });
    expect(editor.permissions[0]!.options.at(-1)).toMatchObject({ name: "Deny", kind: "reject_once" });
    expect(
      updates.some((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "b1" && u.status === "completed"),
    ).toBe(true);
  });

  it("fails the call the editor declines, and tells it so", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ id: "b1", name: "bash", arguments: { command: "touch declined" } }] }, { text: "ok" }],
    });
    const editor = await asEditor(
      env,
      async (agent) => {
        await initialize(agent);
        const { sessionId } = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
        await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
      },
      { answer: (request) => request.options.find((o) => o.kind === "reject_once")!.optionId },
    );
    expect(existsSync(join(env.cwd, "declined"))).toBe(false);
    const failed = editor.updates
      .map((u) => u.update)
      .find((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    expect(failed).toMatchObject({ toolCallId: "b1" });
  });

  it("cancels a prompt that is running: the prompt ends cancelled", async () => {
    const env = keelEnv({ script: [{ text: "this goes on and on", hang: true }] });
    const editor = await asEditor(env, async (agent, record) => {
      await initialize(agent);
      const { sessionId } = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
      const prompt = agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
      await until(() => record.updates.some((u) => u.update.sessionUpdate === "agent_message_chunk"));
      await agent.notify(methods.agent.session.cancel, { sessionId });
      expect((await prompt).stopReason).toBe("cancelled");
    });
    expect(editor.code).toBe(0);
  });

  it("loads an earlier session in a new process: the history comes back as updates and the talk goes on", async () => {
    const env = keelEnv({ script: [{ text: "first answer" }, { text: "second answer" }] });
    let sessionId = "";
    await asEditor(env, async (agent) => {
      await initialize(agent);
      sessionId = (await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] })).sessionId;
      await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "first" }] });
    });
    const editor = await asEditor(env, async (agent, record) => {
      await initialize(agent);
      await agent.request(methods.agent.session.load, { sessionId, cwd: env.cwd, mcpServers: [] });
      expect(chunks(record, "user_message_chunk")).toBe("first");
      expect(chunks(record, "agent_message_chunk")).toBe("first answer");
      await expect(
        agent.request(methods.agent.session.load, { sessionId: "no-such-session", cwd: env.cwd, mcpServers: [] }),
      ).rejects.toThrow(/no session with that id/);
      const done = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "again" }],
      });
      expect(done.stopReason).toBe("end_turn");
    });
    // The scripted model plays its script from the start in each process.
    expect(chunks(editor, "agent_message_chunk")).toBe("first answerfirst answer");
    expect(editor.code).toBe(0);
  });

  it("switches the permission mode: in full mode the call runs without asking", async () => {
    const env = keelEnv({
      script: [{ toolCalls: [{ name: "bash", arguments: { command: "touch unasked" } }] }, { text: "ok" }],
    });
    const editor = await asEditor(env, async (agent) => {
      await initialize(agent);
      const { sessionId } = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
      await agent.request(methods.agent.session.setMode, { sessionId, modeId: "full" });
      await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
      await expect(agent.request(methods.agent.session.setMode, { sessionId, modeId: "yolo" })).rejects.toThrow(
        /the modes are ask, auto, full/,
      );
    });
    expect(editor.permissions).toEqual([]);
    expect(existsSync(join(env.cwd, "unasked"))).toBe(true);
    expect(editor.updates.map((u) => u.update)).toContainEqual({
      sessionUpdate: "current_mode_update",
      currentModeId: "full",
    });
  });

  it("shows the permission mode the settings set from the start, before any decision", async () => {
    const env = keelEnv({ script: [] });
    writeFileSync(join(env.home, "settings.json"), JSON.stringify({ permissions: { mode: "full" } }));
    await asEditor(env, async (agent) => {
      await initialize(agent);
      const created = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
      expect(created.modes?.currentModeId).toBe("full");
    });
  });

  it("reads and writes files through the editor when it offers them: the agent sees the unsaved buffer", async () => {
    const env = keelEnv({
      files: { "notes.txt": "saved: 42\n" },
      script: [
        { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
        { toolCalls: [{ name: "write", arguments: { path: "out.txt", content: "written\n" } }] },
        { text: "done" },
      ],
    });
    const buffers = new Map([[join(env.cwd, "notes.txt"), "unsaved: 43\n"]]);
    const editor = await asEditor(
      env,
      async (agent) => {
        await initialize(agent, true);
        const { sessionId } = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
        await agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
      },
      { buffers },
    );
    const results = editor.updates
      .map((u) => u.update)
      .flatMap((u) => (u.sessionUpdate === "tool_call_update" && u.status === "completed" ? [JSON.stringify(u)] : []));
    expect(results.join("\n")).toContain("unsaved: 43");
    expect(buffers.get(join(env.cwd, "out.txt"))).toBe("written\n");
    expect(existsSync(join(env.cwd, "out.txt"))).toBe(false);
  });

  it("refuses a session in another folder, saying how to start keel there", async () => {
    const env = keelEnv({ script: [{ text: "hi" }] });
    await asEditor(env, async (agent) => {
      await initialize(agent);
      await expect(
        agent.request(methods.agent.session.new, { cwd: "/somewhere/else", mcpServers: [] }),
      ).rejects.toThrow(/keel works in .*; start `keel acp` in \/somewhere\/else/);
    });
  });
  it("offers the shared session commands; /model switches the model, its picker asked as a permission", async () => {
    llm = await startMockLlm([{ reply: { text: "From the mock model." } }]);
    const env = keelEnv({ script: [{ text: "From the script." }] });
    const editor = await asEditor(
      env,
      async (agent, record) => {
        await initialize(agent);
        const { sessionId } = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
        await until(() => kinds(record).includes("available_commands_update"));
        const say = (text: string) =>
          agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
        expect((await say("/model openai/gpt-4.1-mini")).stopReason).toBe("end_turn");
        await say("hello");
        // Without an argument the picker is a permission request whose options are the models.
        await say("/model");
        await say("again");
      },
      {
        answer: (request) => request.options.find((o) => o.name.startsWith("scripted/script"))?.optionId,
        extraEnv: { OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "sk-test" },
      },
    );
    expect(editor.code).toBe(0);
    const offered = editor.updates.map((u) => u.update).find((u) => u.sessionUpdate === "available_commands_update");
    const names = offered?.sessionUpdate === "available_commands_update" ? offered.availableCommands : [];
    expect(names).toEqual(
      expect.arrayContaining([
        { name: "model", description: "Pick the model (or /model <provider>/<id>)" },
        expect.objectContaining({ name: "thinking" }),
        expect.objectContaining({ name: "resume" }),
        expect.objectContaining({ name: "new" }),
        expect.objectContaining({ name: "help" }),
      ]),
    );
    expect(editor.permissions).toHaveLength(1);
    expect(editor.permissions[0]!.toolCall.title).toBe("Model");
    expect(editor.permissions[0]!.options.map((o) => o.name)).toContainEqual(
      expect.stringMatching(/^openai\/gpt-4\.1-mini .*\(current\)$/),
    );
    const said = chunks(editor, "agent_message_chunk");
    expect(said).toContain("Model: openai/gpt-4.1-mini.");
    expect(said).toContain("From the mock model.");
    expect(said).toContain("Model: scripted/script.");
    expect(said).toContain("From the script.");
    expect(llm.requests.map((r) => r.body.model)).toEqual(["gpt-4.1-mini"]);
  });
});
