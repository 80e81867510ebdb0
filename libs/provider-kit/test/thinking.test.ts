/**
 * Thinking levels reach the wire: the `thinking` setting, and a plugin's `runtime.setThinking`, through the
 * real host and loop to each provider plugin, mapped to its format's control (checked on the request the
 * mock LLM server received).
 */
import { resolve } from "node:path";
import type { ThinkingLevel } from "@keel/extensions-api";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { createTestKit, type TestKit } from "@keel/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const CASES = [
  { plugin: "provider-anthropic", provider: "anthropic", model: "claude-sonnet-4-5" },
  { plugin: "provider-openai", provider: "openai", model: "gpt-5-mini" },
  { plugin: "provider-openai-responses", provider: "openai-responses", model: "gpt-5-mini" },
] as const;

/** What each format sent for a level, read off the request body. */
function sentLevel(provider: string, body: Record<string, any>): unknown {
  if (provider === "anthropic") return body.thinking ?? "none";
  if (provider === "openai") return body.reasoning_effort ?? "none";
  return body.reasoning?.effort ?? "none";
}

describe("thinking levels on the wire", () => {
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

  async function bodies(
    c: (typeof CASES)[number],
    thinking: ThinkingLevel | undefined,
    chosen: (ThinkingLevel | undefined)[] = [],
  ) {
    kit = await createTestKit({
      plugins: [resolve(import.meta.dirname, "../../../plugins", c.plugin)],
      settings: {
        provider: c.provider,
        model: c.model,
        ...(thinking ? { thinking } : {}),
        providers: { [c.provider]: { baseUrl: `${llm.url}/v1`, apiKey: "k" } },
      },
    });
    const first = llm.requests.length;
    llm.push({ reply: { text: "one" } });
    await kit.run("first");
    // What a plugin (a slash command, a router) does between prompts.
    for (const level of chosen) {
      kit.runtime.setThinking(level);
      llm.push({ reply: { text: "again" } });
      await kit.run("again");
    }
    return llm.requests.slice(first).map((r) => sentLevel(c.provider, r.body));
  }

  it("maps each level of the thinking setting to Anthropic budget_tokens", async () => {
    const sent = [];
    for (const level of ["minimal", "low", "medium", "high"] as const) sent.push(...(await bodies(CASES[0], level)));
    expect(sent).toEqual([1024, 4096, 10_000, 32_000].map((budget_tokens) => ({ type: "enabled", budget_tokens })));
  });

  it("maps the level to OpenAI's reasoning_effort and the Responses reasoning.effort", async () => {
    expect(await bodies(CASES[1], "high")).toEqual(["high"]);
    expect(await bodies(CASES[2], "minimal")).toEqual(["minimal"]);
  });

  it(
    "asks for nothing when the level is off or unset, and follows runtime.setThinking from the " + "next request",
    async () => {
      expect(await bodies(CASES[0], undefined, ["low", "off", undefined])).toEqual([
        "none",
        { type: "enabled", budget_tokens: 4096 },
        "none",
        "none",
      ]);
      expect(await bodies(CASES[1], "medium", ["off", undefined])).toEqual(["medium", "none", "medium"]);
      expect(await bodies(CASES[2], "off", ["high"])).toEqual(["none", "high"]);
    },
  );

  it("refuses an unknown level from a plugin with the levels it accepts", async () => {
    kit = await createTestKit({});
    expect(() => kit!.runtime.setThinking("max" as ThinkingLevel)).toThrow(
      /one of off, minimal, low, medium, high \(got "max"\)/,
    );
  });
});
