/** Renders a reply as an Anthropic Messages stream (message_start, content blocks, message_delta, message_stop). */
import { argsText, pieces, sseEvent } from "./sse.ts";
import type { MockReply } from "./types.ts";
import type { Rendered } from "./render.ts";

export function renderAnthropic(reply: MockReply, model: string, n: number): Rendered {
  const events: string[] = [];
  const emit = (type: string, body: Record<string, unknown>) => events.push(sseEvent({ type, ...body }, type));
  const size = reply.chunk ?? 8;
  const u = reply.usage ?? {};
  emit("message_start", {
    message: {
      id: `msg_mock${n}`,
      type: "message",
      role: "assistant",
      content: [],
      model,
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: u.input ?? 10,
        cache_creation_input_tokens: u.cacheWrite ?? 0,
        cache_read_input_tokens: u.cacheRead ?? 0,
        output_tokens: 1,
      },
    },
  });
  let index = 0;
  if (reply.thinking !== undefined) {
    emit("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    for (const p of pieces(reply.thinking, size))
      emit("content_block_delta", { index, delta: { type: "thinking_delta", thinking: p } });
    emit("content_block_delta", {
      index,
      delta: { type: "signature_delta", signature: reply.signature ?? `sig_mock${n}` },
    });
    emit("content_block_stop", { index });
    index++;
  }
  if (reply.text !== undefined) {
    emit("content_block_start", { index, content_block: { type: "text", text: "" } });
    if (index === 0) events.push(sseEvent({ type: "ping" }, "ping"));
    for (const p of pieces(reply.text, size))
      emit("content_block_delta", { index, delta: { type: "text_delta", text: p } });
    emit("content_block_stop", { index });
    index++;
  }
  (reply.toolCalls ?? []).forEach((call, i) => {
    emit("content_block_start", {
      index,
      content_block: { type: "tool_use", id: call.id ?? `toolu_mock${n}_${i}`, name: call.name, input: {} },
    });
    for (const p of pieces(argsText(call.arguments), size))
      emit("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: p } });
    emit("content_block_stop", { index });
    index++;
  });
  const stop = reply.stop ?? ((reply.toolCalls ?? []).length > 0 ? "tool_use" : "stop");
  emit("message_delta", {
    delta: { stop_reason: stop === "stop" ? "end_turn" : stop === "length" ? "max_tokens" : stop, stop_sequence: null },
    usage: { output_tokens: u.output ?? 5 },
  });
  emit("message_stop", {});
  const errorEvent = (message: string, type?: string) =>
    sseEvent({ type: "error", error: { type: type ?? "overloaded_error", message } }, "error");
  return { events, finalCount: 1, errorEvent };
}
