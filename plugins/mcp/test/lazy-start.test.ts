import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

describe("servers that plugins bring", () => {
  it("starts the servers of a plugin folder's .mcp.json and offers their tools", async () => {
    const t = tiny();
    const dir = mkdtempSync(join(tmpdir(), "keel-mcp-plugin-"));
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "brings-a-server",
        version: "1.0.0",
        type: "module",
        keel: { apiVersion: "^1.0.0", entry: "./index.js" },
      }),
    );
    writeFileSync(join(dir, "index.js"), "export default { activate() {} };\n");
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { tiny: t.server } }));
    kit = await createTestKit({
      plugins: [pluginDir, dir],
      keelHome: t.home,
      script: [{ toolCalls: [{ name: "mcp__tiny__greet", arguments: { who: "Ada" } }] }, { text: "done" }],
    });
    await kit.run("greet");
    expect(kit.problems()).toEqual([]);
    expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("hello Ada");
  });
});
