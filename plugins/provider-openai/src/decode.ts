/**
 * A Chat Completions stream → keel stream events. Text, reasoning (`reasoning_content` or `reasoning`, as
 * compatible servers name it) and tool calls assembled by `index` (id and name arrive once, arguments in
 * pieces); `finish_reason`, the usage chunk, and `[DONE]` as the final event.
 */
import { z, type ProviderRequest, type StreamEvent } from "@keel/extensions-api";
import { type AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { ProviderError, overflowError, parseEvent, type SseEvent, type StreamDecoder } from "@keel/provider-kit";
import { overflowDetail } from "./overflow.ts";

const ToolCallDelta = z.object({
  index: z.number().int().optional(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

const Chunk = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z.array(ToolCallDelta).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z
    .object({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
  error: z.union([z.string(), z.object({ message: z.string().nullish(), type: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish() })]).nullish(),
});

export function createChatDecoder(b: AssistantMessageBuilder, request: ProviderRequest, label: string): StreamDecoder {
  let open: { index: number; kind: "text" | "thinking" | "call" } | undefined;
  /** Wire tool-call index → block index and id. */
  const calls = new Map<number, { block: number; id: string }>();
  let lastWireIndex = -1;
  let finish: string | undefined;
  let out: StreamEvent[] = [];

  const close = () => {
    if (open) out.push(b.endBlock(open.index));
    open = undefined;
  };
  const ensure = (kind: "text" | "thinking"): number => {
    if (open?.kind === kind) return open.index;
    close();
    const started = kind === "text" ? b.beginText() : b.beginThinking();
    out.push(started);
    open = { index: started.index, kind };
    return started.index;
  };

  function toolCall(delta: z.output<typeof ToolCallDelta>) {
    const id = delta.id ?? undefined;
    let wire = delta.index ?? (id && ![...calls.values()].some((c) => c.id === id) ? lastWireIndex + 1 : Math.max(lastWireIndex, 0));
    const known = calls.get(wire);
    // Some servers number every call 0 and tell them apart by id only.
    if (known && id && known.id !== id) wire = Math.max(...calls.keys()) + 1;
    lastWireIndex = wire;
    let call = calls.get(wire);
    if (!call) {
      close();
      const started = b.beginToolCall(id ?? `call_${wire}`, delta.function?.name ?? "");
      out.push(started);
      call = { block: started.index, id: id ?? `call_${wire}` };
      calls.set(wire, call);
      open = { index: started.index, kind: "call" };
    }
    const args = delta.function?.arguments;
    if (args) out.push(b.appendToolArguments(call.block, args));
  }

  function stopReason(): "stop" | "length" | "tool_use" {
    if (finish === "length") return "length";
    if (finish === "tool_calls" || finish === "function_call" || calls.size > 0) return "tool_use";
    return "stop";
  }

  return {
    finalEvent: "data: [DONE]",
    push(event: SseEvent): StreamEvent[] {
      out = [];
      if (event.data === "[DONE]") {
        close();
        if (finish === "content_filter") throw new ProviderError(`${label} stopped the reply: the content filter flagged it (finish_reason "content_filter").`, { kind: "stream" });
        out.push(b.finish(stopReason(), request.model));
        return out;
      }
      const chunk = parseEvent(Chunk, event.data, event.event ?? "chat.completion.chunk", label);
      if (chunk.error) {
        const message = typeof chunk.error === "string" ? chunk.error : (chunk.error.message ?? JSON.stringify(chunk.error));
        const overflow = overflowDetail(message);
        if (overflow) throw overflowError(`${label}: ${overflow}`);
        throw new ProviderError(`${label} reported an error in the stream: ${message}`, { kind: "stream", retryable: /overloaded|rate.?limit|temporar/i.test(message) });
      }
      if (chunk.usage) {
        const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        b.setUsage({ input: (chunk.usage.prompt_tokens ?? 0) - cached, output: chunk.usage.completion_tokens ?? 0, cacheRead: cached });
      }
      const choice = chunk.choices?.[0];
      const delta = choice?.delta;
      if (delta) {
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning) out.push(b.appendThinking(ensure("thinking"), reasoning));
        if (delta.content) out.push(b.appendText(ensure("text"), delta.content));
        for (const call of delta.tool_calls ?? []) toolCall(call);
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
      return out;
    },
  };
}
