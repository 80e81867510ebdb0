import { afterEach, describe, expect, it } from "vitest";
import { createTestKit, type TestKit } from "@keel/testing";
import { promptArguments } from "../src/prompts.ts";
import { nodeServer, pluginDir, referenceServer } from "./servers.ts";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

describe("MCP prompts as /mcp:<server>:<prompt> commands", () => {
  it("runs server-everything's prompt with arguments and sends what it rendered as the user's message", async () => {
    kit = await createTestKit({
      plugins: [pluginDir],
      settings: { mcpServers: { everything: nodeServer(referenceServer("everything"), ["stdio"]) } },
      script: [{ text: "ok" }],
    });
    const commands = kit.runtime.listCommands().map((c) => c.name);
    expect(commands).toEqual(expect.arrayContaining(["/mcp:everything:simple-prompt", "/mcp:everything:args-prompt"]));
    expect(await kit.runtime.runCommand("/mcp:everything:args-prompt Paris state=Texas")).toBe(true);
    const user = kit.runtime.messages.find((m) => m.role === "user");
    expect(JSON.stringify(user)).toContain("weather in Paris, Texas");
  });

  it("fills named arguments by name and the rest in order, the last taking the remaining words", () => {
    const prompt = { name: "p", arguments: [{ name: "city" }, { name: "note" }] };
    expect(promptArguments(prompt, "Paris a long note")).toEqual({ city: "Paris", note: "a long note" });
    expect(promptArguments(prompt, "note=short Rome")).toEqual({ note: "short", city: "Rome" });
  });
});
