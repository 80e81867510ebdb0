import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Message } from "@keel/extensions-api";
import { compactionSummaryMessage } from "@keel/extensions-api/compaction";
import { responsesPayload } from "@keel/provider-kit";
import { describe, expect, it } from "vitest";
import { OPENAI_RESPONSES } from "../../../plugins/provider-openai-responses/src/vendor.ts";
import { collect, request } from "@keel/provider-kit/conformance";
import { STREAMS_DIR, replayFetch } from "../../../test/conformance/provider/recorded.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

const table = kitProviders(OPENAI_RESPONSES, {}, { env: {} })[0]!.models();
const mini = table.find((m) => m.id === "gpt-5-mini")!;
const gpt41 = table.find((m) => m.id === "gpt-4.1")!;

describe("Responses API payload", () => {
  it("keeps nothing on the server and puts the system prompt in instructions", () => {
    const body = responsesPayload(request(gpt41, undefined, { maxTokens: 900 }));
    expect(body).toMatchObject({
      model: "gpt-4.1",
      store: false,
      stream: true,
      instructions: "You are a test.",
      max_output_tokens: 900,
    });
    expect(body.tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "The weather in a city.",
        parameters: expect.any(Object),
        strict: false,
      },
    ]);
    expect(body.include).toBeUndefined();
  });

  it("asks reasoning models for encrypted reasoning and a summary", () => {
    const body = responsesPayload(request(mini, undefined, { reasoning: "low" }));
    expect(body.reasoning).toEqual({ effort: "low", summary: "auto" });
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
  });

  it("replays a streamed reasoning item and tool call inline, without item ids", async () => {
    const bytes = readFileSync(join(STREAMS_DIR, "openai-responses/reasoning.sse"));
    const provider = kitProviders(
      OPENAI_RESPONSES,
      {},
      { env: { OPENAI_API_KEY: "k" }, fetch: replayFetch([bytes]) },
    )[0]!;
    const { message } = await collect(provider, request(mini));
    message.content.push({ type: "toolCall", id: "call_7", name: "get_weather", arguments: '{"city":"Oslo"}' });
    const history: Message[] = [
      { role: "user", content: "count", timestamp: 1 },
      message,
      {
        role: "toolResult",
        toolCallId: "call_7",
        toolName: "get_weather",
        content: [{ type: "text", text: "Sunny" }],
        isError: false,
        timestamp: 3,
      },
    ];
    const input = responsesPayload(request(mini, history)).input as Record<string, unknown>[];
    expect(input).toEqual([
      { role: "user", content: "count" },
      {
        type: "reasoning",
        summary: [{ type: "summary_text", text: (message.content[0] as { thinking: string }).thinking }],
        encrypted_content: "gAAAAABooMGqZ3Vtb2NrLWVuY3J5cHRlZC1yZWFzb25pbmc=",
      },
      { role: "assistant", content: 'There are 3 r\'s in "strawberry".' },
      { type: "function_call", call_id: "call_7", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { type: "function_call_output", call_id: "call_7", output: "Sunny" },
    ]);
    expect(input.some((item) => "id" in item)).toBe(false);
  });

  it("sends a compaction summary as an ordinary user message", () => {
    const summary = compactionSummaryMessage("We fixed the parser.");
    expect((responsesPayload(request(gpt41, [summary])).input as unknown[])[0]).toEqual({
      role: "user",
      content: summary.content,
    });
  });
});
