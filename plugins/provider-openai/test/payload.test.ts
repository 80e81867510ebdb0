import { emptyUsage, type AssistantMessage, type Message, type ModelInfo } from "@keel/extensions-api";
import { compactionSummaryMessage } from "@keel/extensions-api/compaction";
import { chatPayload } from "@keel/provider-kit";
import { describe, expect, it } from "vitest";
import { request } from "@keel/provider-kit/conformance";
import { OPENAI } from "../../../plugins/provider-openai/src/vendor.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

const table = kitProviders(OPENAI, {}, { env: {} })[0]!.models();
const model = (id: string) => table.find((m) => m.id === id)!;
const local: ModelInfo = {
  id: "qwen3:8b",
  provider: "ollama",
  contextWindow: 40_960,
  maxOutput: 8192,
  reasoning: true,
};

const assistant = (content: AssistantMessage["content"], provider = "openai"): AssistantMessage => ({
  role: "assistant",
  content,
  stopReason: "tool_use",
  usage: emptyUsage(),
  provider,
  model: "gpt-4.1",
  timestamp: 2,
});

const toolRound: Message[] = [
  { role: "user", content: "weather?", timestamp: 1 },
  assistant([
    { type: "thinking", thinking: "hmm" },
    { type: "text", text: "Checking." },
    { type: "toolCall", id: "call_1", name: "get_weather", arguments: '{"city": "Paris"' },
  ]),
  {
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "get_weather",
    content: [
      { type: "text", text: "Sunny" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ],
    isError: false,
    timestamp: 3,
  },
];

describe("Chat Completions payload", () => {
  it("streams with usage and sends the tools as functions", () => {
    const body = chatPayload(request(model("gpt-4.1")));
    expect(body).toMatchObject({ model: "gpt-4.1", stream: true, stream_options: { include_usage: true } });
    expect(body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "The weather in a city.",
          parameters: expect.objectContaining({ type: "object" }),
        },
      },
    ]);
  });

  it("replays tool calls with their raw argument text and answers them with tool messages", () => {
    const body = chatPayload(request(model("gpt-4.1"), toolRound));
    expect(body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "Sunny" },
      {
        role: "user",
        content: [
          { type: "text", text: "Images returned by the tool calls above:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
    ]);
  });

  it("uses the developer role and max_completion_tokens for OpenAI reasoning models", () => {
    const body = chatPayload(request(model("o4-mini"), undefined, { maxTokens: 1000, reasoning: "high" }));
    expect((body.messages as { role: string }[])[0]!.role).toBe("developer");
    expect(body.max_completion_tokens).toBe(1000);
    expect(body.reasoning_effort).toBe("high");
  });

  it("uses system and max_tokens for a settings-defined server unless its compat flags say otherwise", () => {
    const plain = chatPayload(request(local, undefined, { maxTokens: 500 }));
    expect((plain.messages as { role: string }[])[0]!.role).toBe("system");
    expect(plain.max_tokens).toBe(500);
    const flagged = chatPayload(
      request(
        {
          ...local,
          compat: {
            maxTokensField: "max_completion_tokens",
            systemRole: "developer",
            includeUsage: false,
            reasoningEffort: false,
          },
        },
        undefined,
        { maxTokens: 500, reasoning: "low" },
      ),
    );
    expect(flagged.max_completion_tokens).toBe(500);
    expect((flagged.messages as { role: string }[])[0]!.role).toBe("developer");
    expect(flagged.stream_options).toBeUndefined();
    expect(flagged.reasoning_effort).toBeUndefined();
  });

  it("sends a compaction summary as an ordinary user message", () => {
    const summary = compactionSummaryMessage("We fixed the parser.");
    const body = chatPayload(request(model("gpt-4.1"), [summary, { role: "user", content: "go on", timestamp: 2 }]));
    expect((body.messages as unknown[])[1]).toEqual({ role: "user", content: summary.content });
  });

  it("leaves images out, with a note, for a model that takes only text", () => {
    const body = chatPayload(
      request(local, [
        {
          role: "user",
          content: [
            { type: "text", text: "see" },
            { type: "image", data: "AAAA", mimeType: "image/png" },
          ],
          timestamp: 1,
        },
      ]),
    );
    expect((body.messages as { content: unknown }[])[1]!.content).toEqual([
      { type: "text", text: "see" },
      { type: "text", text: "(an image was left out: model qwen3:8b does not accept images)" },
    ]);
  });
});
