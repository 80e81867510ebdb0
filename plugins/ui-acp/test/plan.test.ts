/**
 * A plugin's `plan` event reaches the editor as ACP `plan` updates: the ACP SDK's client side drives the real
 * `keel acp` with the todo example loaded, and the model's todo calls show as the plan, whole each time.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION, type SessionNotification } from "@agentclientprotocol/sdk";
import { expect, it } from "vitest";
import { KEEL_BIN, keelEnv, SCRIPTED } from "../../../test/support/keel-cli.ts";

const todo = fileURLToPath(new URL("../../../examples/todo", import.meta.url));

it("shows the todo list the model keeps as the editor's plan", { timeout: 60_000 }, async () => {
  const add = (text: string) => ({ name: "todo", arguments: { action: "add", text } });
  const env = keelEnv({
    script: [
      { toolCalls: [add("write the test"), add("ship it")] },
      { toolCalls: [{ name: "todo", arguments: { action: "done", id: 1 } }] },
      { text: "one step left" },
    ],
  });
  const child = spawn(process.execPath, [KEEL_BIN, "acp", "--plugin", todo, ...SCRIPTED], {
    cwd: env.cwd,
    env: { ...process.env, KEEL_HOME: env.home },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const updates: SessionNotification[] = [];
  const app = client({ name: "test-editor" })
    .onNotification(methods.client.session.update, ({ params }) => void updates.push(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) => ({
      outcome: { outcome: "selected", optionId: params.options[0]!.optionId },
    }));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
  try {
    await app.connectWith(stream, async (agent) => {
      await agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await agent.request(methods.agent.session.new, { cwd: env.cwd, mcpServers: [] });
      const done = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "plan the work" }],
      });
      expect(done.stopReason).toBe("end_turn");
    });
  } finally {
    child.stdin.end();
  }
  const plans = updates.flatMap((u) => (u.update.sessionUpdate === "plan" ? [u.update.entries] : []));
  expect(plans.map((entries) => entries.map((e) => `${e.content}: ${e.status}`))).toEqual([
    ["write the test: pending"],
    ["write the test: pending", "ship it: pending"],
    ["write the test: completed", "ship it: pending"],
  ]);
  expect(plans.flat().every((e) => e.priority === "medium")).toBe(true);
  expect(stderr).toBe("");
});
