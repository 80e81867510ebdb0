/**
 * The MCP servers an editor passes in ACP's `session/new` are connected for that session: the ACP SDK's client
 * side drives the real `keel acp` with server-everything (a real stdio server nobody here wrote) in its
 * `mcpServers`, and the prompt's tool call reaches it.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION, type SessionNotification } from "@agentclientprotocol/sdk";
import { expect, it } from "vitest";
import { KEEL_BIN, keelEnv, SCRIPTED } from "../../../test/support/keel-cli.ts";

const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist");

it("connects the editor's MCP servers for the session and calls their tools", { timeout: 60_000 }, async () => {
  const env = keelEnv({
    script: [
      { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "from the editor" } }] },
      { text: "echoed" },
    ],
  });
  const child = spawn(process.execPath, [KEEL_BIN, "acp", ...SCRIPTED], {
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
      const { sessionId } = await agent.request(methods.agent.session.new, {
        cwd: env.cwd,
        mcpServers: [
          { name: "everything", command: process.execPath, args: [join(everything, "index.js"), "stdio"], env: [] },
        ],
      });
      const done = await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "echo something" }],
      });
      expect(done.stopReason).toBe("end_turn");
    });
  } finally {
    child.stdin.end();
  }
  expect(stderr).not.toContain("cannot connect");
  expect(JSON.stringify(updates)).toContain("Echo: from the editor");
});
