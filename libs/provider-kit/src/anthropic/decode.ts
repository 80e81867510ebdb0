/**
 * A Messages API stream → keel stream events: `message_start` (input usage), `content_block_start/delta/stop`
 * for text, thinking (with its signature), redacted thinking and tool use (input JSON in pieces),
 * `message_delta` (stop reason, output usage), `message_stop` as the final event, `error` events, `ping`.
 */
import { z, type ProviderRequest, type StreamEvent } from "@keel/extensions-api";
import { type AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { type StreamDecoder } from "../driver.ts";
import { ProviderError, overflowError } from "../errors.ts";
import { parseEvent } from "../json.ts";
import { lazy } from "../lazy.ts";
import { type SseEvent } from "../sse.ts";
import { overflowDetail } from "./overflow.ts";

/** The events' schemas, built with the first decoder: a run over another format never builds them. */
const schemas = lazy(() => {
  const Usage = z.object({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
    /** Cache writes by lifetime; 1-hour entries cost more than 5-minute ones. */
    cache_creation: z.object({ ephemeral_1h_input_tokens: z.number().nullish() }).nullish(),
    output_tokens_details: z.object({ thinking_tokens: z.number().nullish() }).nullish(),
  });

  const Event = z.object({
    type: z.string(),
    index: z.number().int().optional(),
    message: z.object({ usage: Usage.nullish() }).optional(),
    content_block: z
      .object({
        type: z.string(),
        text: z.string().optional(),
        id: z.string().optional(),
        name: z.string().optional(),
        input: z.unknown().optional(),
        signature: z.string().optional(),
        data: z.string().optional(),
      })
      .optional(),
    delta: z
      .object({
        type: z.string().optional(),
        text: z.string().optional(),
        thinking: z.string().optional(),
        signature: z.string().optional(),
        partial_json: z.string().optional(),
        stop_reason: z.string().nullish(),
        stop_details: z.object({ explanation: z.string().nullish() }).nullish(),
      })
      .optional(),
    usage: Usage.nullish(),
    error: z.object({ type: z.string().optional(), message: z.string().optional() }).optional(),
  });
  return { Usage, Event };
});
type Schemas = ReturnType<typeof schemas>;

type Open = { block: number; kind: "text" | "thinking" | "call"; input?: unknown; hasArgs?: boolean };

export function createAnthropicDecoder(
  b: AssistantMessageBuilder,
  request: ProviderRequest,
  label: string,
): StreamDecoder {
  const { Event } = schemas();
  const blocks = new Map<number, Open>();
  /** Blocks keel does not show (server tool use, web search results); their deltas are skipped. */
  const ignored = new Set<number>();
  let stopReason: string | undefined;
  /** Why a refused request was refused, when the server says. */
  let explanation: string | undefined;
  let out: StreamEvent[] = [];

  const usage = (u: z.output<Schemas["Usage"]> | null | undefined) => {
    if (!u) return;
    const set: Parameters<typeof b.setUsage>[0] = {};
    if (u.input_tokens != null) set.input = u.input_tokens;
    if (u.output_tokens != null) set.output = u.output_tokens;
    if (u.cache_read_input_tokens != null) set.cacheRead = u.cache_read_input_tokens;
    if (u.cache_creation_input_tokens != null) set.cacheWrite = u.cache_creation_input_tokens;
    if (u.cache_creation?.ephemeral_1h_input_tokens != null)
      set.cacheWrite1h = u.cache_creation.ephemeral_1h_input_tokens;
    if (u.output_tokens_details?.thinking_tokens != null) set.reasoning = u.output_tokens_details.thinking_tokens;
    b.setUsage(set);
  };
  const get = (index: number | undefined, type: string): Open => {
    const open = index === undefined ? undefined : blocks.get(index);
    if (!open)
      throw new ProviderError(`${label} sent ${type} for content block ${index}, which was never started`, {
        kind: "stream",
      });
    return open;
  };
  const close = (wire: number, open: Open) => {
    if (open.kind === "call" && !open.hasArgs)
      out.push(b.appendToolArguments(open.block, JSON.stringify(open.input ?? {})));
    out.push(b.endBlock(open.block));
    blocks.delete(wire);
  };

  function start(index: number, cb: NonNullable<z.output<Schemas["Event"]>["content_block"]>) {
    if (cb.type === "text") {
      const started = b.beginText();
      out.push(started);
      blocks.set(index, { block: started.index, kind: "text" });
      if (cb.text) out.push(b.appendText(started.index, cb.text));
    } else if (cb.type === "thinking" || cb.type === "redacted_thinking") {
      const started = b.beginThinking();
      out.push(started);
      if (cb.type === "redacted_thinking") b.setThinkingSignature(started.index, cb.data ?? "", true);
      else if (cb.signature) b.setThinkingSignature(started.index, cb.signature);
      blocks.set(index, { block: started.index, kind: "thinking" });
    } else if (cb.type === "tool_use") {
      const started = b.beginToolCall(cb.id ?? `toolu_${index}`, cb.name ?? "");
      out.push(started);
      const input = cb.input && typeof cb.input === "object" && Object.keys(cb.input).length > 0 ? cb.input : undefined;
      blocks.set(index, { block: started.index, kind: "call", input });
    } else ignored.add(index);
  }
  function delta(index: number | undefined, d: NonNullable<z.output<Schemas["Event"]>["delta"]>) {
    if (index !== undefined && ignored.has(index)) return;
    if (index === undefined || !blocks.has(index)) {
      if (
        d.type === "text_delta" ||
        d.type === "thinking_delta" ||
        d.type === "input_json_delta" ||
        d.type === "signature_delta"
      )
        get(index, d.type);
      return;
    }
    const open = blocks.get(index)!;
    if (d.type === "text_delta" && open.kind === "text") out.push(b.appendText(open.block, d.text ?? ""));
    else if (d.type === "thinking_delta" && open.kind === "thinking")
      out.push(b.appendThinking(open.block, d.thinking ?? ""));
    else if (d.type === "signature_delta" && open.kind === "thinking")
      b.setThinkingSignature(open.block, d.signature ?? "");
    else if (d.type === "input_json_delta" && open.kind === "call" && d.partial_json) {
      open.hasArgs = true;
      out.push(b.appendToolArguments(open.block, d.partial_json));
    }
  }

  function finish(): StreamEvent {
    for (const [wire, open] of [...blocks]) close(wire, open);
    switch (stopReason) {
      case "max_tokens":
      case "model_context_window_exceeded":
        return b.finish("length", request.model);
      case "tool_use":
        return b.finish("tool_use", request.model);
      case "pause_turn":
        return b.finish("pause_turn", request.model);
      case "refusal":
        throw new ProviderError(
          `${label} declined to answer (stop_reason "refusal")${explanation ? `: ${explanation}` : "."}`,
          { kind: "stream" },
        );
      default:
        return b.finish(b.message.content.some((c) => c.type === "toolCall") ? "tool_use" : "stop", request.model);
    }
  }

  return {
    finalEvent: "message_stop",
    push(event: SseEvent): StreamEvent[] {
      out = [];
      const e = parseEvent(Event, event.data, event.event ?? "message", label);
      switch (e.type) {
        case "message_start":
          usage(e.message?.usage);
          break;
        case "content_block_start":
          if (e.index === undefined || !e.content_block)
            throw new ProviderError(
              `${label} sent content_block_start without index or content_block: ${event.data.slice(0, 200)}`,
              { kind: "stream" },
            );
          start(e.index, e.content_block);
          break;
        case "content_block_delta":
          if (e.delta) delta(e.index, e.delta);
          break;
        case "content_block_stop": {
          const open = e.index === undefined ? undefined : blocks.get(e.index);
          if (open) close(e.index!, open);
          break;
        }
        case "message_delta":
          if (e.delta?.stop_reason) stopReason = e.delta.stop_reason;
          if (e.delta?.stop_details?.explanation) explanation = e.delta.stop_details.explanation;
          usage(e.usage);
          break;
        case "message_stop":
          out.push(finish());
          break;
        case "error": {
          const message = e.error?.message ?? event.data;
          const overflow = overflowDetail(message);
          if (overflow) throw overflowError(`${label}: ${overflow}`);
          const type = e.error?.type ?? "error";
          throw new ProviderError(`${label} reported an error in the stream (${type}): ${message}`, {
            kind: "stream",
            retryable: type === "overloaded_error" || type === "api_error" || type === "rate_limit_error",
          });
        }
        default:
          // ping and event types added later carry nothing to show
          break;
      }
      return out;
    },
  };
}
