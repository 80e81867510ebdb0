/**
 * The MCP servers an editor passes in ACP's `session/new` are connected for that session: the ACP SDK's client
 * side drives the real `keel acp` with server-everything (a real stdio server nobody here wrote) in its
 * `mcpServers`, and the prompt's tool call reaches it.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { methods } from "@agentclientprotocol/sdk";
import { expect, it } from "vitest";
import { keelEnv } from "../../../test/support/keel-cli.ts";
import { asEditor, initialize } from "./editor.ts";

const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist");

it("connects the editor's MCP servers for the session and calls their tools", { timeout: 60_000 }, async () => {
  const env = keelEnv({
    script: [
      { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "from the editor" } }] },
      { text: "echoed" },
    ],
  });
  const editor = await asEditor(env, async (agent) => {
    await initialize(agent);
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
  expect(editor.stderr()).not.toContain("cannot connect");
  expect(editor.stderr()).not.toContain("no MCP plugin is active");
  expect(JSON.stringify(editor.updates)).toContain("Echo: from the editor");
});

it("says so when no active plugin takes the editor's MCP servers", { timeout: 60_000 }, async () => {
  const env = keelEnv({ script: [{ text: "no tools here" }] });
  // The MCP plugin disabled: nobody subscribes to session_mcp_servers.
  const settings = JSON.stringify({ plugins: { disabled: ["@keel/plugin-mcp"] } });
  const editor = await asEditor(
    env,
    async (agent) => {
      await initialize(agent);
      await agent.request(methods.agent.session.new, {
        cwd: env.cwd,
        mcpServers: [{ name: "everything", command: process.execPath, args: ["index.js"], env: [] }],
      });
    },
    { args: ["--settings", settings] },
  );
  expect(editor.stderr()).toContain("the editor passed MCP servers (everything); no MCP plugin is active");
});
