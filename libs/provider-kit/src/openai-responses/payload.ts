/**
 * keel's request → a Responses API request body. `store: false` keeps nothing on OpenAI's side, so the whole
 * history goes inline: reasoning comes back as its `encrypted_content` (kept in the thinking block's
 * signature), and no item is sent with an `id` — with `store: false` an id makes the API look up an item it
 * never kept and fail.
 */
import type { ImageContent, Message, ModelInfo, ProviderRequest, TextContent } from "@keel/extensions-api";
import { imageLeftOut, TOOL_IMAGES_HEADER, toolResultParts } from "../tool-result-parts.ts";
import { ToolMemo, WireMemo } from "../wire-memo.ts";

type Item = Record<string, unknown>;

function inputContent(content: (TextContent | ImageContent)[], model: ModelInfo): Item[] {
  const images = model.input?.includes("image") ?? false;
  return content.map((c) =>
    c.type === "text"
      ? { type: "input_text", text: c.text }
      : images
        ? { type: "input_image", image_url: `data:${c.mimeType};base64,${c.data}`, detail: "auto" }
        : { type: "input_text", text: imageLeftOut(model) },
  );
}

/** One message's items and the images of a tool result, which follow the results. */
type Mapped = { items: Item[]; images: readonly ImageContent[] };
const NO_IMAGES: readonly ImageContent[] = [];
const memo = new WireMemo<Mapped>();
const tools = new ToolMemo<unknown>();

function mapped(m: Message, model: ModelInfo): Mapped {
  if (m.role === "user") {
    const content = typeof m.content === "string" ? m.content : inputContent(m.content, model);
    return { items: [{ role: "user", content }], images: NO_IMAGES };
  }
  if (m.role === "toolResult") {
    const { text, images } = toolResultParts(m);
    return { items: [{ type: "function_call_output", call_id: m.toolCallId, output: text }], images };
  }
  const items: Item[] = [];
  const sameProvider = m.provider === model.provider;
  for (const b of m.content) {
    if (b.type === "text" && b.text) items.push({ role: "assistant", content: b.text });
    else if (b.type === "toolCall")
      items.push({ type: "function_call", call_id: b.id, name: b.name, arguments: b.arguments });
    else if (b.type === "thinking" && sameProvider && b.signature) {
      items.push({
        type: "reasoning",
        summary: b.thinking ? [{ type: "summary_text", text: b.thinking }] : [],
        encrypted_content: b.signature,
      });
    }
  }
  return { items, images: NO_IMAGES };
}

export function responsesInput(messages: Message[], model: ModelInfo): Item[] {
  const out: Item[] = [];
  // What a mapping reads of the model: its provider (whose reasoning is replayed), image input, and its id.
  const key = `${model.provider}\n${model.id}\n${model.input?.includes("image") ?? false}`;
  let pendingImages: ImageContent[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    out.push({
      role: "user",
      content: [{ type: "input_text", text: TOOL_IMAGES_HEADER }, ...inputContent(pendingImages, model)],
    });
    pendingImages = [];
  };
  for (const m of messages) {
    if (m.role !== "toolResult") flushImages();
    const { items, images } = memo.of(m, key, () => mapped(m, model));
    out.push(...items);
    pendingImages.push(...images);
  }
  flushImages();
  return out;
}

export function responsesPayload(request: ProviderRequest): Record<string, unknown> {
  const { model } = request;
  const body: Record<string, unknown> = {
    model: model.id,
    input: responsesInput(request.messages, model),
    stream: true,
    store: false,
  };
  if (request.systemPrompt) body.instructions = request.systemPrompt;
  if (request.tools.length > 0)
    body.tools = request.tools.map((t) =>
      tools.of(t, "", (parameters) => ({
        type: "function",
        name: t.name,
        description: t.description,
        parameters,
        strict: false,
      })),
    );
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  if (request.temperature !== undefined && !model.reasoning) body.temperature = request.temperature;
  if (model.reasoning) {
    const summary = model.compat?.reasoningSummary === undefined ? "auto" : model.compat.reasoningSummary;
    body.reasoning = { ...(request.reasoning ? { effort: request.reasoning } : {}), ...(summary ? { summary } : {}) };
    body.include = ["reasoning.encrypted_content"];
  }
  if (request.sessionId) body.prompt_cache_key = request.sessionId;
  return body;
}
