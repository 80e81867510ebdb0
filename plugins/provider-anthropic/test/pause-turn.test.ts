/**
 * Anthropic `pause_turn` (a long turn the server paused, during server-side tools): the loop sends the
 * conversation back at once, with the partial reply, and the run ends only when the model has finished.
 */
import { resolve } from "node:path";
import { textOf } from "@keel/extensions-api";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { createTestKit } from "@keel/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

let llm: MockLlm;
beforeAll(async () => {
  llm = await startMockLlm();
});
afterAll(async () => {
  await llm.close();
});

it("continues a paused turn by sending the conversation back", async () => {
  const kit = await createTestKit({
    plugins: [resolve(import.meta.dirname, "../../../plugins/provider-anthropic")],
    settings: {
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      providers: { anthropic: { baseUrl: llm.url, apiKey: "k" } },
    },
  });
  const first = llm.requests.length;
  llm.push(
    { reply: { text: "Searching one at a time:", stop: "pause_turn" } },
    { reply: { text: "All searches done." } },
  );
  const result = await kit.run("Run the searches.");
  expect(result.reason).toBe("stop");
  expect(result.finalText).toBe("All searches done.");
  const [, again] = llm.requests.slice(first);
  // No new user message: the second request ends with the paused reply, for the model to continue.
  const messages = again!.body.messages as { role: string; content: { type: string; text?: string }[] }[];
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(messages[1]!.content).toEqual([{ type: "text", text: "Searching one at a time:" }]);
  expect(kit.runtime.messages.filter((m) => m.role === "assistant").map((m) => textOf(m))).toEqual([
    "Searching one at a time:",
    "All searches done.",
  ]);
  await kit.dispose();
});
