import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { nodeServer, pluginDir, referenceServer } from "./servers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const permissionsDir = join(pluginDir, "..", "permissions");

describe("mcp with the reference servers filesystem and memory", () => {
  it("reads a file through server-filesystem", async () => {
    const root = mkdtempSync(join(tmpdir(), "keel-mcp-fs-"));
    writeFileSync(join(root, "notes.txt"), "the answer is 42\n");
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: { fs: nodeServer(referenceServer("filesystem"), [root]) } },
      script: [
        { toolCalls: [{ name: "mcp__fs__read_text_file", arguments: { path: join(root, "notes.txt") } }] },
        { text: "ok" },
      ],
    });
    expect(kit.runtime.listTools().map((t) => t.name)).toEqual(
      expect.arrayContaining(["mcp__fs__read_text_file", "mcp__fs__write_file", "mcp__fs__list_directory"]),
    );
    await kit.run("read it");
    expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("the answer is 42");
  });

  it("lets no readOnlyHint grant anything: the permission guard asks (and, with no UI, refuses)", async () => {
    const root = mkdtempSync(join(tmpdir(), "keel-mcp-fs-"));
    writeFileSync(join(root, "notes.txt"), "secret\n");
    kit = await createTestKit({
      plugins: [pluginDir, permissionsDir],
      settings: { mcpServers: { fs: nodeServer(referenceServer("filesystem"), [root]) } },
      script: [
        { toolCalls: [{ name: "mcp__fs__read_text_file", arguments: { path: join(root, "notes.txt") } }] },
        { text: "ok" },
      ],
    });
    await kit.run("read it");
    expect(kit.eventsOf("guard_blocked").map((b) => b.subject)).toEqual([
      expect.objectContaining({ toolName: "mcp__fs__read_text_file" }),
    ]);
    expect(JSON.stringify(kit.toolResults()[0]!.content)).not.toContain("secret");
  });

  it("stores and reads back a knowledge graph through server-memory", async () => {
    const memory = join(mkdtempSync(join(tmpdir(), "keel-mcp-memory-")), "memory.jsonl");
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: { memory: nodeServer(referenceServer("memory"), [], { MEMORY_FILE_PATH: memory }) } },
      script: [
        {
          toolCalls: [
            {
              name: "mcp__memory__create_entities",
              arguments: {
                entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
              },
            },
          ],
        },
        { toolCalls: [{ name: "mcp__memory__read_graph", arguments: {} }] },
        { text: "ok" },
      ],
    });
    await kit.run("remember Ada");
    const [created, graph] = kit.toolResults();
    expect(created!.isError).toBeFalsy();
    expect(JSON.stringify(graph!.content)).toContain("wrote the first program");
  });
});
