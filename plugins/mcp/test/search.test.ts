import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { nodeServer, pluginDir, referenceServer } from "./servers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const everything = { everything: nodeServer(referenceServer("everything"), ["stdio"]) };

describe("mcp_search above the threshold", () => {
  it("sends mcp_search instead of the tools, and makes the ones it finds callable", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything, mcp: { searchAboveTools: 5 } },
      script: [
        { toolCalls: [{ name: "mcp_search", arguments: { query: "echo a message back", limit: 2 } }] },
        { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "found you" } }] },
        { text: "ok" },
      ],
    });
    const names = () => kit!.runtime.listTools().map((t) => t.name);
    expect(names()).toContain("mcp_search");
    expect(names().filter((n) => n.startsWith("mcp__"))).toEqual([]);
    await kit.run("echo something");
    const [search, echo] = kit.toolResults();
    expect(JSON.stringify(search!.content)).toContain("mcp__everything__echo");
    expect(JSON.stringify(echo!.content)).toContain("found you");
    expect(names()).toContain("mcp__everything__echo");
    expect(names().filter((n) => n.startsWith("mcp__")).length).toBeLessThanOrEqual(2);
  });

  it("counts bytes too: a low byte threshold puts even a few tools behind the search", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything, mcp: { searchAboveBytes: 1000 } },
    });
    expect(kit.runtime.listTools().map((t) => t.name)).toContain("mcp_search");
  });

  it("sends the tools one by one below the threshold, without mcp_search", async () => {
    kit = await createTestKit({ plugins: [pluginDir], settings: { mcpServers: everything } });
    const names = kit.runtime.listTools().map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).not.toContain("mcp_search");
  });
});
