import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, type ProviderRequest } from "@keel/extensions-api";
import { playTurn } from "@keel/extensions-api/scripted";
import { createTestKit, type TestKit } from "@keel/testing";
import { nodeServer, pluginDir, referenceServer } from "./servers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const everything = { everything: nodeServer(referenceServer("everything"), ["stdio"]) };

describe("mcp with the reference server-everything over stdio", () => {
  it("lists its tools as mcp__everything__<tool> with their JSON schemas", async () => {
    kit = await createTestKit({ plugins: [pluginDir], settings: { mcpServers: everything } });
    const names = kit.runtime.listTools().map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-tiny-image");
    expect(kit.problems()).toEqual([]);
  });

  it("sends each tool with the JSON Schema the server wrote", async () => {
    const requests: ProviderRequest[] = [];
    const capture = definePlugin({
      activate(api) {
        api.registerProvider({
          id: "capture",
          models: () => [{ id: "m", provider: "capture", contextWindow: 100_000, maxOutput: 1_000 }],
          async *stream(request, options) {
            requests.push(request);
            yield* playTurn({ text: "ok" }, options.signal, { provider: "capture", model: "m" });
          },
        });
      },
    });
    kit = await createTestKit({
      plugins: [pluginDir],
      inline: [{ name: "capture", plugin: capture, manifest: { activation: ["onStartup"] } }],
      settings: { mcpServers: everything, provider: "capture", model: "m" },
    });
    await kit.run("hi");
    const echo = requests[0]!.tools.find((t) => t.name === "mcp__everything__echo");
    expect(echo).toMatchObject({
      description: expect.stringContaining("Echo"),
      parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    });
  });

  it("calls a tool and hands its text to the model", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything, permissions: { mode: "full" } },
      script: [
        { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "hello there" } }] },
        { text: "ok" },
      ],
    });
    await kit.run("echo");
    const [result] = kit.toolResults();
    expect(result!.isError).toBeFalsy();
    expect(JSON.stringify(result!.content)).toContain("hello there");
  });

  it("hands an image result to the model as an image", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything },
      script: [{ toolCalls: [{ name: "mcp__everything__get-tiny-image", arguments: {} }] }, { text: "ok" }],
    });
    await kit.run("image");
    const [result] = kit.toolResults();
    const image = result!.content.find((b) => b.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
  });

  it("sends an error the server reports as an error result", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: everything },
      script: [{ toolCalls: [{ name: "mcp__everything__get-sum", arguments: { a: "not a number" } }] }, { text: "ok" }],
    });
    await kit.run("sum");
    const [result] = kit.toolResults();
    expect(result!.isError).toBe(true);
  });
});
