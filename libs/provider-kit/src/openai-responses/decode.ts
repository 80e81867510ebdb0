/**
 * A Responses API stream → keel stream events. Output items are keyed by `output_index`: a `message` item
 * becomes a text block, a `reasoning` item a thinking block (its summary parts joined; `encrypted_content`
 * kept as the signature), a `function_call` item a tool call. `response.completed` is the final event;
 * `response.incomplete`, `response.failed` and `error` end it otherwise. Any other item (a server-side one such as
 * `tool_search_call`, whatever its shape) is skipped: it must not sink the rest of the reply.
 */
import { z, type ProviderRequest, type StreamEvent } from "@keel/extensions-api";
import { type AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { type StreamDecoder } from "../driver.ts";
import { ProviderError, overflowError } from "../errors.ts";
import { parseEvent } from "../json.ts";
import { lazy } from "../lazy.ts";
import { type SseEvent } from "../sse.ts";

/** The events' schemas, built with the first decoder: a run over another format never builds them. */
const schemas = lazy(() => {
  const Item = z.object({
    type: z.string(),
    call_id: z.string().nullish(),
    name: z.string().nullish(),
    arguments: z.string().nullish(),
    encrypted_content: z.string().nullish(),
  });
  const ErrorBody = z.object({ code: z.string().nullish(), message: z.string().nullish() });
  const Response = z.object({
    status: z.string().optional(),
    usage: z
      .object({
        input_tokens: z.number().nullish(),
        output_tokens: z.number().nullish(),
        input_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
        output_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
      })
      .nullish(),
    error: ErrorBody.nullish(),
    incomplete_details: z.object({ reason: z.string().nullish() }).nullish(),
  });
  const Event = z.object({
    type: z.string(),
    output_index: z.number().int().optional(),
    summary_index: z.number().int().optional(),
    /** Read by `Item` only for the kinds keel decodes (`itemOf`). */
    item: z.unknown().optional(),
    delta: z.string().optional(),
    arguments: z.string().optional(),
    response: Response.optional(),
    code: z.string().nullish(),
    message: z.string().nullish(),
    /** OpenAI nests the `error` event's code and message here; older servers put them at the top. */
    error: ErrorBody.nullish(),
  });
  return { Item, ErrorBody, Response, Event };
});
type Schemas = ReturnType<typeof schemas>;

type Open = { block: number; kind: "text" | "thinking" | "call"; hasArgs?: boolean };

/** The item types keel turns into blocks; a malformed one of these is an error, any other item is skipped. */
const DECODED = new Set(["function_call", "reasoning", "message"]);

const OVERFLOW = /context_length_exceeded|context window|maximum context length/i;

export function createResponsesDecoder(
  b: AssistantMessageBuilder,
  request: ProviderRequest,
  label: string,
): StreamDecoder {
  const { Event, Item } = schemas();
  const items = new Map<number, Open>();
  let out: StreamEvent[] = [];

  const ensure = (index: number | undefined, kind: "text" | "thinking"): Open => {
    const key = index ?? -1;
    const open = items.get(key);
    if (open && open.kind === kind) return open;
    const started = kind === "text" ? b.beginText() : b.beginThinking();
    out.push(started);
    const made = { block: started.index, kind };
    items.set(key, made);
    return made;
  };
  const close = (index: number) => {
    const open = items.get(index);
    if (!open) return;
    out.push(b.endBlock(open.block));
    items.delete(index);
  };
  const failure = (error: z.output<Schemas["ErrorBody"]> | null | undefined, fallback: string): ProviderError => {
    const message = error?.message ?? fallback;
    const code = error?.code ?? "error";
    if (OVERFLOW.test(code) || OVERFLOW.test(message)) return overflowError(`${label}: ${message}`);
    return new ProviderError(`${label} reported an error in the stream (${code}): ${message}`, {
      kind: "stream",
      retryable: code === "server_error" || code === "rate_limit_exceeded",
    });
  };
  const usage = (response: z.output<Schemas["Response"]> | undefined) => {
    const u = response?.usage;
    if (!u) return;
    const cached = u.input_tokens_details?.cached_tokens ?? 0;
    const reasoning = u.output_tokens_details?.reasoning_tokens;
    b.setUsage({
      input: (u.input_tokens ?? 0) - cached,
      output: u.output_tokens ?? 0,
      cacheRead: cached,
      ...(reasoning != null ? { reasoning } : {}),
    });
  };
  const itemOf = (raw: unknown): z.output<Schemas["Item"]> | undefined => {
    const parsed = Item.safeParse(raw);
    if (parsed.success) return DECODED.has(parsed.data.type) ? parsed.data : undefined;
    const type = (raw as { type?: unknown } | null)?.type;
    if (typeof type !== "string" || !DECODED.has(type)) return undefined;
    const issue = parsed.error.issues[0];
    throw new ProviderError(
      `${label} sent a ${type} item of an unexpected shape (${issue?.path.join(".")}: ${issue?.message})`,
      { kind: "stream" },
    );
  };
  const closeAll = () => {
    for (const index of [...items.keys()].sort((x, y) => x - y)) close(index);
  };

  return {
    finalEvent: "response.completed",
    push(event: SseEvent): StreamEvent[] {
      out = [];
      const e = parseEvent(Event, event.data, event.event ?? "message", label);
      const index = e.output_index;
      const item = e.item === undefined ? undefined : itemOf(e.item);
      switch (e.type) {
        case "response.output_item.added":
          if (item?.type === "function_call" && index !== undefined) {
            const started = b.beginToolCall(item.call_id ?? `call_${index}`, item.name ?? "");
            out.push(started);
            const open: Open = { block: started.index, kind: "call" };
            items.set(index, open);
            if (item.arguments) {
              open.hasArgs = true;
              out.push(b.appendToolArguments(open.block, item.arguments));
            }
          } else if (item?.type === "reasoning") ensure(index, "thinking");
          break;
        case "response.output_text.delta":
        case "response.refusal.delta":
          if (e.delta) out.push(b.appendText(ensure(index, "text").block, e.delta));
          break;
        case "response.reasoning_summary_part.added": {
          const open = ensure(index, "thinking");
          const block = b.message.content[open.block];
          if ((e.summary_index ?? 0) > 0 && block?.type === "thinking" && block.thinking)
            out.push(b.appendThinking(open.block, "\n\n"));
          break;
        }
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          if (e.delta) out.push(b.appendThinking(ensure(index, "thinking").block, e.delta));
          break;
        case "response.function_call_arguments.delta": {
          const open = index === undefined ? undefined : items.get(index);
          if (!open || open.kind !== "call")
            throw new ProviderError(
              `${label} sent function call arguments for output ${index}, which is not a function call`,
              { kind: "stream" },
            );
          if (e.delta) {
            open.hasArgs = true;
            out.push(b.appendToolArguments(open.block, e.delta));
          }
          break;
        }
        case "response.function_call_arguments.done": {
          const open = index === undefined ? undefined : items.get(index);
          if (open?.kind === "call" && !open.hasArgs && e.arguments) {
            open.hasArgs = true;
            out.push(b.appendToolArguments(open.block, e.arguments));
          }
          break;
        }
        case "response.output_item.done": {
          if (index === undefined) break;
          const open = items.get(index);
          if (open?.kind === "thinking" && item?.encrypted_content)
            b.setThinkingSignature(open.block, item.encrypted_content);
          if (open?.kind === "call" && !open.hasArgs)
            out.push(b.appendToolArguments(open.block, item?.arguments || "{}"));
          close(index);
          break;
        }
        case "response.completed":
          closeAll();
          usage(e.response);
          out.push(b.finish(b.message.content.some((c) => c.type === "toolCall") ? "tool_use" : "stop", request.model));
          break;
        case "response.incomplete": {
          closeAll();
          usage(e.response);
          const reason = e.response?.incomplete_details?.reason ?? "unknown";
          if (reason !== "max_output_tokens")
            throw new ProviderError(`${label} stopped the reply early (incomplete: ${reason}).`, { kind: "stream" });
          out.push(b.finish("length", request.model));
          break;
        }
        case "response.failed":
          throw failure(e.response?.error, "the response failed without saying why");
        case "error":
          throw failure({ code: e.error?.code ?? e.code, message: e.error?.message ?? e.message }, event.data);
        default:
          // response.created, *.done summaries, content_part events: nothing new to show
          break;
      }
      return out;
    },
  };
}
