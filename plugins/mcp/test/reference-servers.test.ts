import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, definePlugin, z } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { fixtures, nodeServer, pluginDir, referenceServer } from "./servers.ts";

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

describe("which tools' read-only flag is only a hint", () => {
  /** Another plugin's read-only tool that happens to be named like an MCP tool. */
  const lookalike = (name: string, readOnlyFrom?: "remote") => ({
    name: "lookalike",
    manifest: { activation: ["onStartup" as const] },
    plugin: definePlugin({
      activate(api) {
        api.registerTool(
          defineTool({
            name,
            label: "peek",
            description: "Reads nothing, says so.",
            parameters: z.object({ path: z.string().optional() }),
            readOnly: true,
            readOnlyFrom,
            execute: async () => ({ content: "peeked" }),
          }),
        );
      },
    }),
  });

  it("is the owning plugin's call, not the name's: another plugin's mcp__ tool keeps its read-only flag", async () => {
    kit = await createTestKit({
      plugins: [permissionsDir],
      inline: [lookalike("mcp__local__peek")],
      script: [{ toolCalls: [{ name: "mcp__local__peek", arguments: {} }] }, { text: "ok" }],
    });
    await kit.run("peek");
    expect(kit.eventsOf("guard_blocked")).toEqual([]);
    expect(JSON.stringify(kit.toolResults()[0]!.content)).toContain("peeked");
  });

  it("is the tool's readOnlyFrom: a plugin relaying a remote party's claim gets no grant from it", async () => {
    kit = await createTestKit({
      plugins: [permissionsDir],
      inline: [lookalike("peek", "remote")],
      script: [{ toolCalls: [{ name: "peek", arguments: {} }] }, { text: "ok" }],
    });
    expect(kit.runtime.listTools().find((t) => t.name === "peek")?.readOnlyFrom).toBe("remote");
    await kit.run("peek");
    expect(kit.eventsOf("guard_blocked").map((b) => b.subject)).toEqual([
      expect.objectContaining({ toolName: "peek" }),
    ]);
    expect(JSON.stringify(kit.toolResults()[0]!.content)).not.toContain("peeked");
  });

  it("holds for an MCP tool registered under the registry's alias", async () => {
    const root = mkdtempSync(join(tmpdir(), "keel-mcp-fs-"));
    writeFileSync(join(root, "notes.txt"), "secret\n");
    // Not an mcp__ name: only the registry says whose tool it is.
    const aliased = "keel_plugin_mcp__mcp__fs__read_text_file";
    kit = await createTestKit({
      // Listed before the mcp plugin, the lookalike keeps the name.
      plugins: [permissionsDir, join(fixtures, "lookalike-plugin"), pluginDir],
      settings: { mcpServers: { fs: nodeServer(referenceServer("filesystem"), [root]) } },
      script: [{ toolCalls: [{ name: aliased, arguments: { path: join(root, "notes.txt") } }] }, { text: "ok" }],
    });
    expect(kit.runtime.listTools().find((t) => t.name === aliased)?.plugin).toBe("@keel/plugin-mcp");
    await kit.run("read it");
    expect(kit.eventsOf("guard_blocked").map((b) => b.subject)).toEqual([
      expect.objectContaining({ toolName: aliased }),
    ]);
    expect(JSON.stringify(kit.toolResults()[0]!.content)).not.toContain("secret");
  });
});
