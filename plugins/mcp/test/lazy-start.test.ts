import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { pluginDir, tiny } from "./servers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

describe("mcp servers start when first needed", () => {
  it("offers a known server's tools from the cache and starts it only on the first call", async () => {
    const t = tiny();
    kit = await createTestKit({ plugins: [pluginDir], keelHome: t.home, settings: { mcpServers: { tiny: t.server } } });
    expect(t.startCount()).toBe(1);
    await kit.dispose();

    kit = await createTestKit({
      plugins: [pluginDir],
      keelHome: t.home,
      settings: { mcpServers: { tiny: t.server } },
      script: [{ toolCalls: [{ name: "mcp__tiny__greet", arguments: { who: "Ada" } }] }, { text: "done" }],
    });
    expect(kit.runtime.listTools().map((x) => x.name)).toContain("mcp__tiny__greet");
    expect(t.startCount()).toBe(1);
    await kit.run("greet Ada");
    expect(t.startCount()).toBe(2);
    expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("hello Ada");
  });
});
