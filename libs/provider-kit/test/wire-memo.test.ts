/**
 * Reused wire items (wire-memo.ts): a frozen history maps and serialises to exactly what a fresh one does, for
 * every model it is sent to, and nothing a `provider_request` handler does to one request reaches the next.
 */
import { emptyUsage, type Message, type ModelInfo, type ToolSpec } from "@keel/extensions-api";
import { anthropicPayload, chatPayload, responsesPayload } from "@keel/provider-kit";
import { collect, request } from "@keel/provider-kit/conformance";
import { startMockLlm } from "@keel/provider-kit/mock-llm";
import { describe, expect, it } from "vitest";
import { OPENAI } from "../../../plugins/provider-openai/src/vendor.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";
import { requestBody } from "../src/wire-memo.ts";

const seeing: ModelInfo = { id: "a", provider: "openai", contextWindow: 1e5, maxOutput: 1e3, input: ["text", "image"] };
const blind: ModelInfo = { id: "b", provider: "openai", contextWindow: 1e5, maxOutput: 1e3 };

function history(): Message[] {
  return [
    { role: "user", content: [{ type: "text", text: "look" }], timestamp: 1 },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Looking." },
        { type: "toolCall", id: "c1", name: "shot", arguments: '{"x":1}' },
      ],
      stopReason: "tool_use",
      usage: emptyUsage(),
      provider: "openai",
      model: "a",
      timestamp: 2,
    },
    {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "shot",
      content: [
        { type: "text", text: "here" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      isError: false,
      timestamp: 3,
    },
    { role: "user", content: "and now?", timestamp: 4 },
  ];
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

describe("reused wire items", () => {
  const frozen = deepFreeze(history());
  for (const [name, payload] of [
    ["Chat Completions", chatPayload],
    ["Responses", responsesPayload],
  ] as const) {
    it(`${name}: a frozen history gives, request after request and model after model, a fresh one's body`, () => {
      for (const model of [seeing, blind, seeing, blind]) {
        const expected = JSON.stringify(payload(request(model, history())));
        const reused = payload(request(model, frozen));
        expect(requestBody(reused)).toBe(expected);
        expect(JSON.stringify(reused)).toBe(expected);
      }
    });
  }

  for (const [name, payload] of [
    ["Chat Completions", chatPayload],
    ["Responses", responsesPayload],
    ["Anthropic", anthropicPayload],
  ] as const) {
    it(`${name}: tools declared once are reused while they stay the same, and the body says what they are now`, () => {
      // As the loop sends them: new spec objects each request, around the schema object it keeps per tool.
      const schemas = [
        { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
        { type: "object", properties: { path: { type: "string", default: "." } } },
      ];
      const specs = (description = "Runs a command."): ToolSpec[] => [
        { name: "bash", description, parameters: schemas[0]! },
        { name: "ls", description: "Lists a folder.", parameters: schemas[1]! },
      ];
      const fresh = (tools: ToolSpec[]) =>
        JSON.stringify(payload(request(seeing, history(), { tools: structuredClone(tools) })));
      const first = payload(request(seeing, history(), { tools: specs() })) as { tools: unknown[] };
      const second = payload(request(seeing, history(), { tools: specs() })) as { tools: unknown[] };
      expect(requestBody(first)).toBe(fresh(specs()));
      expect(requestBody(second)).toBe(fresh(specs()));
      expect(second.tools[0]).toBe(first.tools[0]);
      expect(Object.isFrozen(schemas[0])).toBe(false);
      const changed = payload(request(seeing, history(), { tools: specs("Runs a shell command.") }));
      expect(requestBody(changed)).toBe(fresh(specs("Runs a shell command.")));
      // The last tool's entry differs when it is not the last (Anthropic's cache mark), and back again.
      const reordered = [...specs()].reverse();
      expect(requestBody(payload(request(seeing, history(), { tools: reordered })))).toBe(fresh(reordered));
      expect(requestBody(payload(request(seeing, history(), { tools: specs() })))).toBe(fresh(specs()));
    });
  }

  it("serialises any payload as JSON.stringify does", () => {
    const shared = payloadItems();
    const cases: unknown[] = [
      { a: 1, skipped: undefined, f: () => 1, list: [1, undefined, () => 2, , "x"], nested: [[1], { b: [2] }] },
      { when: new Date(0), items: shared },
      { toJSON: () => ({ replaced: true }) },
      [1, 2],
      "text",
      null,
    ];
    for (const value of cases) expect(requestBody(value)).toBe(JSON.stringify(value));
  });

  it("keeps what a provider_request handler changes in place to the request it changed", async () => {
    const llm = await startMockLlm();
    try {
      const provider = kitProviders(
        OPENAI,
        { providers: { openai: { baseUrl: `${llm.url}/v1`, apiKey: "k" } } },
        {},
      )[0]!;
      const model = provider.models()[0]!;
      llm.push({ reply: { text: "one" } }, { reply: { text: "two" } });
      await collect(provider, request(model, frozen), {
        onPayload: async (payload, headers) => {
          const body = payload as { messages: { content: unknown }[] };
          for (const item of body.messages) item.content = "CHANGED";
          return { payload, headers };
        },
      });
      // The second without a handler: its body is made from the reused items themselves.
      for await (const event of provider.stream(request(model, frozen), { signal: new AbortController().signal }))
        if (event.type === "error") throw new Error(event.message.errorMessage);
      expect(JSON.stringify(llm.requests[0]!.body)).toContain("CHANGED");
      expect(JSON.stringify(llm.requests[1]!.body)).not.toContain("CHANGED");
      expect(llm.requests[1]!.body).toEqual(JSON.parse(JSON.stringify(chatPayload(request(model, history())))));
    } finally {
      await llm.close();
    }
  });
});

/** Items as a reused mapping holds them: frozen, from a frozen history. */
function payloadItems(): unknown {
  return (chatPayload(request(seeing, deepFreeze(history()))) as { messages: unknown }).messages;
}
