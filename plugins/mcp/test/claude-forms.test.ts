/**
 * MCP configurations as Claude Code and its plugins write them: a plugin's flat `.mcp.json` with
 * `${CLAUDE_PLUGIN_ROOT}`, `${VAR}` and `${VAR:-default}` filled from the environment (a missing one named), an
 * entry's extra fields named once instead of refusing it, and `type: "sse"` over the older HTTP+SSE transport.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import { parseServer } from "../src/servers.ts";
import { fixtures, pluginDir, referenceServer, startHttpServer } from "./servers.ts";

let kit: TestKit | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
  server?.kill();
});

describe("an MCP entry as other clients write it", () => {
  it("fills ${VAR} and ${VAR:-default} in command, args, env, url and headers", () => {
    const env = { TOKEN: "t0k", BIN: "/usr/bin/srv" };
    const stdio = parseServer("s", { command: "${BIN}", args: ["--k=${TOKEN}"], env: { K: "${KEY:-none}" } }, env);
    expect(stdio).toMatchObject({
      ok: true,
      config: { command: "/usr/bin/srv", args: ["--k=t0k"], env: { K: "none" } },
    });
    const http = parseServer(
      "h",
      { type: "http", url: "https://${HOST:-mcp.example.com}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      env,
    );
    expect(http).toMatchObject({
      ok: true,
      config: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t0k" } },
    });
  });

  it("refuses a server whose variable is not set, naming it", () => {
    const parsed = parseServer("gh", { url: "https://x/mcp", headers: { A: "Bearer ${GITHUB_TOKEN}" } }, {});
    expect(parsed).toEqual({ ok: false, error: expect.stringContaining('MCP server "gh" needs $GITHUB_TOKEN') });
  });

  it("keeps an entry with fields keel does not use, naming them", () => {
    const parsed = parseServer(
      "docs",
      {
        type: "sse",
        url: "https://x/sse",
        description: "Docs",
        oauth: { clientId: "c", callbackPort: 8123, pkce: 1 },
        alwaysLoad: true,
      },
      {},
    );
    expect(parsed).toMatchObject({ ok: true, config: { type: "sse", oauth: { clientId: "c", callbackPort: 8123 } } });
    expect(parsed.ok && parsed.ignored).toEqual(["alwaysLoad", "oauth.pkce"]);
  });
});

describe("servers a Claude Code plugin brings", () => {
  it("reads a flat .mcp.json and fills ${CLAUDE_PLUGIN_ROOT} with the plugin's folder", async () => {
    const dir = join(tempDir(), "greeter");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "greeter",
        version: "1.0.0",
        type: "module",
        keel: { apiVersion: "^1.0.0", entry: "./index.ts" },
      }),
    );
    writeFileSync(join(dir, "index.ts"), "export default { activate() {} };\n");
    writeFileSync(join(dir, "greeting"), "Greets from the plugin.");
    const entry = {
      command: process.execPath,
      args: [join(fixtures, "tiny-server.mjs")],
      env: { TINY_DEFINITION: "${CLAUDE_PLUGIN_ROOT}/greeting" },
    };
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ greeter: entry }));
    kit = await createTestKit({
      plugins: [pluginDir, dir],
      script: [{ toolCalls: [{ name: "mcp__greeter__greet", arguments: { who: "Ada" } }] }, { text: "ok" }],
    });
    expect(kit.runtime.listTools().find((t) => t.name === "mcp__greeter__greet")?.description).toContain(
      "Greets from the plugin.",
    );
    await kit.run("greet");
    expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("hello Ada");
  });
});

describe("type: sse", () => {
  it("lists and calls server-everything's tools over HTTP+SSE", async () => {
    const started = await startHttpServer(
      ["--import", join(fixtures, "loopback.mjs"), referenceServer("everything"), "sse"],
      "/sse",
    );
    server = started.child;
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: { old: { type: "sse", url: started.url } } },
      script: [{ toolCalls: [{ name: "mcp__old__echo", arguments: { message: "over sse" } }] }, { text: "ok" }],
    });
    await kit.run("echo");
    expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("over sse");
  });
});
