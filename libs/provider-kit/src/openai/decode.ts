/**
 * A Chat Completions stream → keel stream events. Text (a string, or typed parts `text` / `thinking` as
 * Mistral sends them), reasoning (`reasoning_content` or `reasoning`, as compatible servers name it, or only the
 * texts of `reasoning_details`; inline `<think>` tags with the `thinkTags` quirk), refusals, and tool calls
 * assembled by `index` (id and name arrive once, arguments in pieces); `finish_reason`, the usage chunk (or a
 * vendor's `x_groq.usage`), and `[DONE]` as the final event — or, from a server that never sends `[DONE]`, a
 * finish reason and the usage. Of several choices (`n` > 1) only the first is kept.
 */
import { z, type ProviderRequest, type StreamEvent } from "@keel/extensions-api";
import { type AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { type StreamDecoder } from "../driver.ts";
import { ProviderError, overflowError } from "../errors.ts";
import { parseEvent } from "../json.ts";
import { lazy } from "../lazy.ts";
import { type SseEvent } from "../sse.ts";
import { thinkTagSplitter } from "../think-tags.ts";
import { chatCompat } from "./compat.ts";
import { overflowDetail } from "./overflow.ts";

/** The chunk's schemas, built with the first decoder: a run over another format never builds them. */
const schemas = lazy(() => {
  const ToolCallDelta = z.object({
    index: z.number().int().optional(),
    id: z.string().nullish(),
    function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
  });

  /** Mistral's typed content parts; a thinking part nests its own text parts. */
  const ContentPart = z.object({
    type: z.string(),
    text: z.string().nullish(),
    thinking: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().nullish() }))]).nullish(),
  });

  const ChatUsage = z.object({
    prompt_tokens: z.number().nullish(),
    completion_tokens: z.number().nullish(),
    total_tokens: z.number().nullish(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().nullish() }).nullish(),
    completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
  });

  /** OpenRouter's and Snowflake Cortex's reasoning parts: `reasoning.text` carries `text`, a summary `summary`. */
  const ReasoningDetail = z.object({ text: z.string().nullish(), summary: z.string().nullish() });

  const Chunk = z.object({
    choices: z
      .array(
        z.object({
          index: z.number().nullish(),
          delta: z
            .object({
              content: z.union([z.string(), z.array(ContentPart)]).nullish(),
              refusal: z.string().nullish(),
              reasoning_content: z.string().nullish(),
              reasoning: z.string().nullish(),
              reasoning_details: z.array(ReasoningDetail).nullish(),
              tool_calls: z.array(ToolCallDelta).nullish(),
            })
            .nullish(),
          finish_reason: z.string().nullish(),
        }),
      )
      .nullish(),
    usage: ChatUsage.nullish(),
    /** Groq sends usage only here. */
    x_groq: z.object({ usage: ChatUsage.nullish() }).nullish(),
    error: z
      .union([
        z.string(),
        z.object({
          message: z.string().nullish(),
          type: z.string().nullish(),
          code: z.union([z.string(), z.number()]).nullish(),
        }),
      ])
      .nullish(),
  });
  return { ToolCallDelta, ContentPart, ReasoningDetail, ChatUsage, Chunk };
});
type Schemas = ReturnType<typeof schemas>;

export function createChatDecoder(b: AssistantMessageBuilder, request: ProviderRequest, label: string): StreamDecoder {
  const { Chunk } = schemas();
  let open: { index: number; kind: "text" | "thinking" | "call" } | undefined;
  /** Wire tool-call index → block index and id. */
  const calls = new Map<number, { block: number; id: string }>();
  let lastWireIndex = -1;
  let finish: string | undefined;
  let usageSeen = false;
  /** The wire index of the choice kept; a server answering `n` > 1 interleaves the others. */
  let kept: number | undefined;
  let refusal = "";
  let out: StreamEvent[] = [];
  const tags = chatCompat(request.model).thinkTags ? thinkTagSplitter() : undefined;

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

  function toolCall(delta: z.output<Schemas["ToolCallDelta"]>) {
    const id = delta.id ?? undefined;
    let wire =
      delta.index ??
      (id && ![...calls.values()].some((c) => c.id === id) ? lastWireIndex + 1 : Math.max(lastWireIndex, 0));
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

  function text(delta: string) {
    if (!tags) return void out.push(b.appendText(ensure("text"), delta));
    for (const part of tags.push(delta)) {
      out.push(
        part.kind === "text"
          ? b.appendText(ensure("text"), part.text)
          : b.appendThinking(ensure("thinking"), part.text),
      );
    }
  }
  function content(value: string | z.output<Schemas["ContentPart"]>[]) {
    if (typeof value === "string") return value && text(value);
    for (const part of value) {
      if (part.type === "text" && part.text) text(part.text);
      else if (part.type === "thinking") {
        const thought =
          typeof part.thinking === "string" ? part.thinking : (part.thinking ?? []).map((t) => t.text ?? "").join("");
        if (thought) out.push(b.appendThinking(ensure("thinking"), thought));
      }
    }
  }
  function usage(u: z.output<Schemas["ChatUsage"]>) {
    const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
    const prompt = u.prompt_tokens ?? 0;
    const reasoning = u.completion_tokens_details?.reasoning_tokens ?? undefined;
    let output = u.completion_tokens ?? 0;
    // OpenAI counts reasoning inside completion_tokens; xAI does not (its total is prompt + completion +
    // reasoning). The total says which, so billed output is counted either way.
    if (reasoning && u.total_tokens === prompt + output + reasoning) output += reasoning;
    b.setUsage({
      input: prompt - cached,
      output,
      cacheRead: cached,
      ...(reasoning !== undefined ? { reasoning } : {}),
    });
  }

  function stopReason(): "stop" | "length" | "tool_use" {
    if (finish === "length") return "length";
    if (finish === "tool_calls" || finish === "function_call" || calls.size > 0) return "tool_use";
    return "stop";
  }

  function done(): StreamEvent[] {
    out = [];
    for (const part of tags?.end() ?? [])
      out.push(
        part.kind === "text"
          ? b.appendText(ensure("text"), part.text)
          : b.appendThinking(ensure("thinking"), part.text),
      );
    close();
    if (refusal) throw new ProviderError(`${label} declined to answer: ${refusal}`, { kind: "stream" });
    if (finish === "content_filter")
      throw new ProviderError(
        `${label} stopped the reply: the content filter flagged it (finish_reason "content_filter").`,
        { kind: "stream" },
      );
    out.push(b.finish(stopReason(), request.model));
    return out;
  }

  return {
    finalEvent: "data: [DONE]",
    // Cerebras behind Hugging Face's router closes the body after the usage chunk, with no [DONE].
    end: () => (finish && usageSeen ? done() : undefined),
    push(event: SseEvent): StreamEvent[] {
      out = [];
      if (event.data === "[DONE]") return done();
      const chunk = parseEvent(Chunk, event.data, event.event ?? "chat.completion.chunk", label);
      if (chunk.error) {
        const { error } = chunk;
        // The fields the schema names, in its order: a fast-checked chunk still holds the keys zod would strip.
        const message =
          typeof error === "string"
            ? error
            : (error.message ?? JSON.stringify({ message: error.message, type: error.type, code: error.code }));
        const overflow = overflowDetail(message);
        if (overflow) throw overflowError(`${label}: ${overflow}`);
        throw new ProviderError(`${label} reported an error in the stream: ${message}`, {
          kind: "stream",
          retryable: /overloaded|rate.?limit|temporar/i.test(message),
        });
      }
      const reported = chunk.usage ?? chunk.x_groq?.usage;
      if (reported) {
        usage(reported);
        usageSeen = true;
      }
      const choice = chunk.choices?.find((c) => (kept ??= c.index ?? 0) === (c.index ?? 0));
      const delta = choice?.delta;
      if (delta) {
        // OpenRouter sends the same text in `reasoning` and `reasoning_details`; Snowflake only in the latter.
        const reasoning =
          delta.reasoning_content ??
          delta.reasoning ??
          delta.reasoning_details?.map((d) => d.text ?? d.summary ?? "").join("");
        if (reasoning) out.push(b.appendThinking(ensure("thinking"), reasoning));
        if (delta.content) content(delta.content);
        if (delta.refusal) refusal += delta.refusal;
        for (const call of delta.tool_calls ?? []) toolCall(call);
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
      return out;
    },
  };
}
