/** Renders a reply as an OpenAI Responses stream (typed `response.*` events with sequence numbers). */
import { argsText, pieces, sseEvent } from "./sse.ts";
import type { MockReply } from "./types.ts";
import type { Rendered } from "./render.ts";

export function renderResponses(reply: MockReply, model: string, n: number): Rendered {
  const events: string[] = [];
  let seq = 0;
  const emit = (type: string, body: Record<string, unknown>) =>
    events.push(sseEvent({ type, sequence_number: seq++, ...body }, type));
  const size = reply.chunk ?? 8;
  const response = (status: string, output: unknown[], usage: unknown) => ({
    id: `resp_mock${n}`,
    object: "response",
    created_at: 1_700_000_000 + n,
    status,
    model,
    output,
    usage,
    store: false,
    error: null,
    incomplete_details: null,
  });
  const output: unknown[] = [];
  emit("response.created", { response: response("in_progress", [], null) });
  emit("response.in_progress", { response: response("in_progress", [], null) });

  if (reply.thinking !== undefined) {
    const idx = output.length;
    const id = `rs_mock${n}`;
    emit("response.output_item.added", { output_index: idx, item: { id, type: "reasoning", summary: [] } });
    emit("response.reasoning_summary_part.added", {
      item_id: id,
      output_index: idx,
      summary_index: 0,
      part: { type: "summary_text", text: "" },
    });
    for (const p of pieces(reply.thinking, size))
      emit("response.reasoning_summary_text.delta", { item_id: id, output_index: idx, summary_index: 0, delta: p });
    emit("response.reasoning_summary_text.done", {
      item_id: id,
      output_index: idx,
      summary_index: 0,
      text: reply.thinking,
    });
    emit("response.reasoning_summary_part.done", {
      item_id: id,
      output_index: idx,
      summary_index: 0,
      part: { type: "summary_text", text: reply.thinking },
    });
    const item = {
      id,
      type: "reasoning",
      summary: [{ type: "summary_text", text: reply.thinking }],
      encrypted_content: reply.signature ?? `enc_mock${n}`,
    };
    emit("response.output_item.done", { output_index: idx, item });
    output.push(item);
  }
  if (reply.text !== undefined) {
    const idx = output.length;
    const id = `msg_mock${n}`;
    emit("response.output_item.added", {
      output_index: idx,
      item: { id, type: "message", status: "in_progress", content: [], role: "assistant" },
    });
    emit("response.content_part.added", {
      item_id: id,
      output_index: idx,
      content_index: 0,
      part: { type: "output_text", annotations: [], text: "" },
    });
    for (const p of pieces(reply.text, size))
      emit("response.output_text.delta", { item_id: id, output_index: idx, content_index: 0, delta: p, logprobs: [] });
    emit("response.output_text.done", {
      item_id: id,
      output_index: idx,
      content_index: 0,
      text: reply.text,
      logprobs: [],
    });
    emit("response.content_part.done", {
      item_id: id,
      output_index: idx,
      content_index: 0,
      part: { type: "output_text", annotations: [], text: reply.text },
    });
    const item = {
      id,
      type: "message",
      status: "completed",
      content: [{ type: "output_text", annotations: [], text: reply.text }],
      role: "assistant",
    };
    emit("response.output_item.done", { output_index: idx, item });
    output.push(item);
  }
  (reply.toolCalls ?? []).forEach((call, i) => {
    const idx = output.length;
    const id = `fc_mock${n}_${i}`;
    const callId = call.id ?? `call_mock${n}_${i}`;
    const args = argsText(call.arguments);
    emit("response.output_item.added", {
      output_index: idx,
      item: { id, type: "function_call", status: "in_progress", arguments: "", call_id: callId, name: call.name },
    });
    for (const p of pieces(args, size))
      emit("response.function_call_arguments.delta", { item_id: id, output_index: idx, delta: p });
    emit("response.function_call_arguments.done", { item_id: id, output_index: idx, arguments: args });
    const item = { id, type: "function_call", status: "completed", arguments: args, call_id: callId, name: call.name };
    emit("response.output_item.done", { output_index: idx, item });
    output.push(item);
  });
  const u = reply.usage ?? {};
  const input = (u.input ?? 10) + (u.cacheRead ?? 0);
  const out = u.output ?? 5;
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
    output_tokens: out,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + out,
  };
  if (reply.stop === "length")
    emit("response.incomplete", {
      response: { ...response("incomplete", output, usage), incomplete_details: { reason: "max_output_tokens" } },
    });
  else emit("response.completed", { response: response("completed", output, usage) });
  const errorEvent = (message: string, type?: string) =>
    sseEvent(
      {
        type: "response.failed",
        sequence_number: seq,
        response: { ...response("failed", [], null), error: { code: type ?? "server_error", message } },
      },
      "response.failed",
    );
  return { events, finalCount: 1, errorEvent };
}
