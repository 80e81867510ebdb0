/** keel's request → a Chat Completions request body. */
import type { ImageContent, Message, ModelInfo, ProviderRequest, TextContent } from "@keel/extensions-api";
import { imageLeftOut, TOOL_IMAGES_HEADER, toolResultParts } from "../tool-result-parts.ts";
import { ToolMemo, WireMemo } from "../wire-memo.ts";
import { chatCompat } from "./compat.ts";

type Part = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
type ChatMessage =
  | { role: "system" | "developer"; content: string }
  | { role: "user"; content: string | Part[] }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

function parts(content: (TextContent | ImageContent)[], model: ModelInfo): Part[] {
  const images = model.input?.includes("image") ?? false;
  return content.map((c) =>
    c.type === "text"
      ? { type: "text", text: c.text }
      : images
        ? { type: "image_url", image_url: { url: `data:${c.mimeType};base64,${c.data}` } }
        : { type: "text", text: imageLeftOut(model) },
  );
}

/** One message's item (none for an empty reply) and the images of a tool result, which follow the results. */
type Mapped = { item?: ChatMessage; images: readonly ImageContent[] };
const NO_IMAGES: readonly ImageContent[] = [];
const memo = new WireMemo<Mapped>();
const tools = new ToolMemo<unknown>();

function mapped(m: Message, model: ModelInfo): Mapped {
  if (m.role === "user")
    return {
      item: { role: "user", content: typeof m.content === "string" ? m.content : parts(m.content, model) },
      images: NO_IMAGES,
    };
  if (m.role === "assistant") {
    const text = m.content
      .filter((b): b is TextContent => b.type === "text")
      .map((b) => b.text)
      .join("");
    const calls = m.content.flatMap((b) =>
      b.type === "toolCall"
        ? [{ id: b.id, type: "function" as const, function: { name: b.name, arguments: b.arguments } }]
        : [],
    );
    if (!text && calls.length === 0) return { images: NO_IMAGES };
    const item: ChatMessage =
      calls.length > 0
        ? { role: "assistant", content: text || null, tool_calls: calls }
        : { role: "assistant", content: text };
    return { item, images: NO_IMAGES };
  }
  const { text, images } = toolResultParts(m);
  return { item: { role: "tool", tool_call_id: m.toolCallId, content: text }, images };
}

/** Maps the history. Tool results are `tool` messages (text only); their images follow in one user message. */
export function chatMessages(systemPrompt: string, messages: Message[], model: ModelInfo): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (systemPrompt) out.push({ role: chatCompat(model).systemRole, content: systemPrompt });
  // What a mapping reads of the model: whether it takes images, and its id (in the note for one left out).
  const key = `${model.id}\n${model.input?.includes("image") ?? false}`;
  let pendingImages: ImageContent[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    out.push({
      role: "user",
      content: [{ type: "text", text: TOOL_IMAGES_HEADER }, ...parts(pendingImages, model)],
    });
    pendingImages = [];
  };
  for (const m of messages) {
    if (m.role !== "toolResult") flushImages();
    const { item, images } = memo.of(m, key, () => mapped(m, model));
    if (item) out.push(item);
    pendingImages.push(...images);
  }
  flushImages();
  return out;
}

/** The whole body, streaming with usage. */
export function chatPayload(request: ProviderRequest): Record<string, unknown> {
  const { model } = request;
  const compat = chatCompat(model);
  const body: Record<string, unknown> = {
    model: model.id,
    messages: chatMessages(request.systemPrompt, request.messages, model),
    stream: true,
  };
  if (compat.includeUsage) body.stream_options = { include_usage: true };
  if (request.tools.length > 0)
    body.tools = request.tools.map((t) =>
      tools.of(t, "", (parameters) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters },
      })),
    );
  if (request.maxTokens !== undefined) body[compat.maxTokensField] = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.reasoning && model.reasoning && compat.reasoningEffort) body.reasoning_effort = request.reasoning;
  if (request.sessionId && model.provider === "openai") body.prompt_cache_key = request.sessionId;
  return body;
}
