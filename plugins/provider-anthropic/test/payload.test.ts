import { emptyUsage, type AssistantMessage, type Message } from "@keel/extensions-api";
import { compactionSummaryMessage } from "@keel/extensions-api/compaction";
import { describe, expect, it } from "vitest";
import { anthropicPayload } from "@keel/provider-kit";
import { request } from "@keel/provider-kit/conformance";
import { ANTHROPIC } from "../../../plugins/provider-anthropic/src/vendor.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

const sonnet = kitProviders(ANTHROPIC, {}, { env: {} })[0]!
  .models()
  .find((m) => m.id === "claude-sonnet-4-5")!;
const assistant = (content: AssistantMessage["content"], provider = "anthropic"): AssistantMessage => ({
  role: "assistant",
  content,
  stopReason: "tool_use",
  usage: emptyUsage(),
  provider,
  model: "claude-sonnet-4-5",
  timestamp: 2,
});
const result = (id: string, text: string, isError = false): Message => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "get_weather",
  content: [{ type: "text", text }],
  isError,
  timestamp: 3,
});

describe("Messages API payload", () => {
  it("parses tool-call arguments back into input objects, {} when they are not valid JSON", () => {
    const body = anthropicPayload(
      request(sonnet, [
        { role: "user", content: "go", timestamp: 1 },
        assistant([
          { type: "toolCall", id: "toolu_1", name: "get_weather", arguments: '{"city":"Rome"}' },
          { type: "toolCall", id: "toolu_2", name: "get_weather", arguments: '{"city":' },
        ]),
        result("toolu_1", "Sunny"),
        result("toolu_2", "bad arguments", true),
      ]),
    );
    const messages = body.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(messages[1]!.content).toEqual([
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Rome" } },
      { type: "tool_use", id: "toolu_2", name: "get_weather", input: {} },
    ]);
    // Both results share one user message, in call order.
    expect(messages).toHaveLength(3);
    expect(messages[2]!.content.map((b) => [b.type, b.tool_use_id, b.is_error])).toEqual([
      ["tool_result", "toolu_1", undefined],
      ["tool_result", "toolu_2", true],
    ]);
  });

  it("sends thinking back with its signature, redacted thinking as data, and drops another provider's thinking", () => {
    const history: Message[] = [
      { role: "user", content: "q", timestamp: 1 },
      assistant([
        { type: "thinking", thinking: "step 1", signature: "sig-A" },
        { type: "thinking", thinking: "", signature: "opaque", redacted: true },
        { type: "text", text: "answer" },
      ]),
      { role: "user", content: "q2", timestamp: 3 },
      assistant(
        [
          { type: "thinking", thinking: "foreign", signature: "enc" },
          { type: "text", text: "other" },
        ],
        "openai-responses",
      ),
      { role: "user", content: "q3", timestamp: 5 },
    ];
    const messages = anthropicPayload(request(sonnet, history)).messages as { content: unknown[] }[];
    expect(messages[1]!.content).toEqual([
      { type: "thinking", thinking: "step 1", signature: "sig-A" },
      { type: "redacted_thinking", data: "opaque" },
      { type: "text", text: "answer" },
    ]);
    expect(messages[3]!.content).toEqual([{ type: "text", text: "other" }]);
  });

  it("puts cache breakpoints on the last tool, the system prompt and the last two user messages", () => {
    const history: Message[] = [
      { role: "user", content: "one", timestamp: 1 },
      assistant([{ type: "text", text: "a" }]),
      { role: "user", content: "two", timestamp: 3 },
      assistant([{ type: "text", text: "b" }]),
      { role: "user", content: "three", timestamp: 5 },
    ];
    const body = anthropicPayload(request(sonnet, history));
    const eph = { type: "ephemeral" };
    expect(body.system).toEqual([{ type: "text", text: "You are a test.", cache_control: eph }]);
    expect((body.tools as Record<string, unknown>[]).at(-1)!.cache_control).toEqual(eph);
    const marks = (body.messages as { content: Record<string, unknown>[] }[]).map(
      (m) => m.content.at(-1)!.cache_control,
    );
    expect(marks).toEqual([undefined, undefined, eph, undefined, eph]);
  });

  it("turns on extended thinking with a budget below max_tokens and leaves out the temperature", () => {
    const body = anthropicPayload(
      request(sonnet, undefined, { reasoning: "medium", temperature: 0.2, maxTokens: 4000 }),
    );
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 10_000 });
    expect(body.max_tokens).toBeGreaterThan(10_000);
    expect(body.temperature).toBeUndefined();
  });

  it("sends a compaction summary as an ordinary user message", () => {
    const summary = compactionSummaryMessage("We fixed the parser.");
    const messages = anthropicPayload(request(sonnet, [summary])).messages as {
      role: string;
      content: Record<string, unknown>[];
    }[];
    expect(messages[0]).toMatchObject({ role: "user", content: [{ type: "text", text: summary.content }] });
  });
});
