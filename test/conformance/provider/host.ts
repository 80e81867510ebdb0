/**
 * Provider plugins loaded through the real host (the test kit) against the mock LLM server: the loop, the
 * `provider_request` hook and `retry_start` events around a real HTTP provider.
 */
import { resolve } from "node:path";
import { definePlugin, defineTool, toolCallsOf, z, type Message } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm, type WireFormatName } from "@keel/provider-kit/mock-llm";

export interface HostSpec {
  format: WireFormatName;
  /** Folder name under plugins/. */
  plugin: string;
  modelId: string;
}

/** Tool calls of kept assistant messages without exactly one result, and results without a call. */
export function unpairedCalls(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const results = new Map<string, number>();
  for (const m of messages)
    if (m.role === "toolResult") results.set(m.toolCallId, (results.get(m.toolCallId) ?? 0) + 1);
  const calls = new Set<string>();
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const call of toolCallsOf(m)) {
      calls.add(call.id);
      if (results.get(call.id) !== 1) problems.push(`call ${call.id} has ${results.get(call.id) ?? 0} results`);
    }
  }
  for (const id of results.keys()) if (!calls.has(id)) problems.push(`result ${id} has no call`);
  return problems;
}

const weatherPlugin = {
  name: "weather-fixture",
  plugin: definePlugin({
    activate(api) {
      api.registerTool(
        defineTool({
          name: "get_weather",
          description: "The weather in a city.",
          parameters: z.object({ city: z.string() }),
          readOnly: true,
          execute: async ({ city }) => ({ content: `Sunny in ${city}, 21 °C` }),
        }),
      );
      api.hooks.tap("provider_request", (value) => ({
        ...value,
        headers: { ...value.headers, "x-keel-hook": "seen" },
      }));
    },
  }),
  manifest: { activation: ["onStartup" as const] },
};

export function providerThroughHost(spec: HostSpec): void {
  describe(`${spec.plugin} through the real host`, () => {
    let llm: MockLlm;
    let kit: TestKit | undefined;
    beforeAll(async () => {
      llm = await startMockLlm();
    });
    afterEach(async () => {
      await kit?.dispose();
      kit = undefined;
    });
    afterAll(async () => {
      await llm.close();
    });

    const start = (extra: Record<string, unknown> = {}) =>
      createTestKit({
        plugins: [resolve(import.meta.dirname, "../../../plugins", spec.plugin)],
        inline: [weatherPlugin],
        settings: {
          provider: spec.format,
          model: spec.modelId,
          providers: { [spec.format]: { baseUrl: `${llm.url}/v1`, apiKey: "sk-from-settings" } },
          ...extra,
        },
      });

    it("runs a tool call and answers, with the hook's header on every request", async () => {
      kit = await start();
      const first = llm.requests.length;
      llm.push(
        { reply: { toolCalls: [{ id: "call_w1", name: "get_weather", arguments: { city: "Oslo" } }] } },
        { reply: { text: "It is sunny in Oslo." } },
      );
      const result = await kit.run("Weather in Oslo?");
      expect(result.reason, result.errorMessage).toBe("stop");
      expect(result.finalText).toBe("It is sunny in Oslo.");
      expect(kit.toolResults().map((r) => r.content)).toEqual([[{ type: "text", text: "Sunny in Oslo, 21 °C" }]]);
      const requests = llm.requests.slice(first);
      expect(requests.map((r) => r.headers["x-keel-hook"])).toEqual(["seen", "seen"]);
      expect(JSON.stringify(requests[1]!.body)).toContain("Sunny in Oslo, 21 °C");
      expect(kit.problems()).toEqual([]);
    });

    it("publishes retry_start when the server asks to retry", async () => {
      kit = await start();
      llm.push({ status: 429, headers: { "retry-after-ms": "5" } }, { reply: { text: "after the wait" } });
      const result = await kit.run("hi");
      expect(result.finalText).toBe("after the wait");
      expect(kit.eventsOf("retry_start")).toEqual([
        expect.objectContaining({ attempt: 2, delayMs: 5, provider: spec.format, model: spec.modelId }),
      ]);
    });

    it("keeps the history valid when the connection breaks after a tool round", async () => {
      kit = await start();
      llm.push(
        { reply: { toolCalls: [{ id: "call_w2", name: "get_weather", arguments: { city: "Lima" } }] } },
        {
          reply: { text: "Lima is sunny and the rest of this answer is lost", chunk: 4 },
          fault: { kind: "reset", afterEvents: -3 },
        },
      );
      const result = await kit.run("Weather in Lima?");
      expect(result.reason).toBe("error");
      expect(result.errorMessage).toMatch(/broke mid-stream/);
      expect(unpairedCalls(kit.runtime.messages)).toEqual([]);
    });
  });
}
