import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { nodeServer, pluginDir, referenceServer } from "./servers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const everything = { everything: nodeServer(referenceServer("everything"), ["stdio"]) };
const notices = (k: TestKit) =>
  k
    .eventsOf("notice")
    .map((n) => n.message)
    .join("\n");

describe("mcp with server-everything: structured results, resources, /mcp, protocol revisions", () => {
  it("keeps structuredContent in the result's details, and the model sees it", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything },
      script: [
        { toolCalls: [{ name: "mcp__everything__get-structured-content", arguments: { location: "Chicago" } }] },
        { text: "ok" },
      ],
    });
    await kit.run("weather");
    const [end] = kit.eventsOf("tool_execution_end");
    const details = end!.result.details as { structuredContent?: Record<string, unknown> };
    expect(details.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("temperature");
  });

  it("lists a server's resources and reads one with mcp_read_resource", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything },
      script: [{ toolCalls: [{ name: "mcp_read_resource", arguments: { server: "everything" } }] }, { text: "ok" }],
    });
    await kit.run("resources");
    const listing = JSON.stringify(kit.toolResults()[0]!.content);
    const uri = /demo:\/\/resource\/static\/document\/[^\s"\\]+/.exec(listing)?.[0];
    expect(uri).toBeDefined();
    await kit.dispose();
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything },
      script: [
        { toolCalls: [{ name: "mcp_read_resource", arguments: { server: "everything", uri } }] },
        { text: "ok" },
      ],
    });
    await kit.run("read it");
    const [read] = kit.toolResults();
    expect(read!.isError).toBeFalsy();
    expect(JSON.stringify(read!.content)).toContain(`Resource ${uri}`);
  });

  it("/mcp lists each server with its state, the revision it negotiated, and its tools", async () => {
    kit = await createTestKit({ plugins: [pluginDir], settings: { mcpServers: everything } });
    await kit.runtime.runCommand("/mcp");
    expect(notices(kit)).toMatch(/everything \(.*\): ready, protocol 2025-11-25/);
    expect(notices(kit)).toContain("mcp__everything__echo");
  });

  it("with protocol auto, probes for 2026-07-28 and falls back to 2025-11-25 for a server without it", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything, mcp: { protocol: "auto" } },
    });
    await kit.runtime.runCommand("/mcp");
    expect(notices(kit)).toMatch(/ready, protocol 2025-11-25/);
  });

  it("with protocol 2026-07-28, reports a server that does not speak it by name", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything, mcp: { protocol: "2026-07-28", startTimeoutMs: 5_000 } },
    });
    expect(kit.problems().join("\n") + notices(kit)).toMatch(/MCP server "everything" did not start/);
  });
});
