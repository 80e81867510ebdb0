/**
 * keel's request → a Messages API request body. Tool results become `tool_result` blocks in user messages,
 * tool-call arguments (kept as raw text in keel) are parsed back into objects, thinking blocks go back with
 * their signatures, and cache breakpoints mark the tools, the system prompt and the last two user turns.
 */
import {
  type ImageContent,
  type Message,
  type ModelInfo,
  type ProviderRequest,
  type TextContent,
} from "@keel/extensions-api";
import { argumentsObject } from "../json.ts";
import { ToolMemo } from "../wire-memo.ts";

type Block = Record<string, unknown> & { type: string };
interface WireMessage {
  role: "user" | "assistant";
  content: Block[];
}

const EPHEMERAL = { type: "ephemeral" } as const;
const tools = new ToolMemo<unknown>();

/** Thinking budgets per requested level; Anthropic's minimum is 1024. */
const BUDGET = { minimal: 1024, low: 4096, medium: 10_000, high: 32_000 } as const;

function userBlocks(content: string | (TextContent | ImageContent)[], model: ModelInfo): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content || "(empty)" }];
  const images = model.input?.includes("image") ?? false;
  const blocks = content.flatMap((c): Block[] => {
    if (c.type === "text") return c.text ? [{ type: "text", text: c.text }] : [];
    if (!images) return [{ type: "text", text: `(an image was left out: model ${model.id} does not accept images)` }];
    return [{ type: "image", source: { type: "base64", media_type: c.mimeType, data: c.data } }];
  });
  return blocks.length > 0 ? blocks : [{ type: "text", text: "(empty)" }];
}

/** Maps the history; consecutive tool results share one user message, as the API requires. */
export function anthropicMessages(messages: Message[], model: ModelInfo): WireMessage[] {
  const out: WireMessage[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      out.push({ role: "user", content: userBlocks(m.content, model) });
    } else if (m.role === "assistant") {
      // Signatures are only valid for the provider that made them; another provider's thinking is left out.
      const sameProvider = m.provider === model.provider;
      const content = m.content.flatMap((b): Block[] => {
        if (b.type === "text") return b.text ? [{ type: "text", text: b.text }] : [];
        if (b.type === "toolCall")
          return [{ type: "tool_use", id: b.id, name: b.name, input: argumentsObject(b.arguments) }];
        if (!sameProvider || !b.signature) return [];
        return b.redacted
          ? [{ type: "redacted_thinking", data: b.signature }]
          : [{ type: "thinking", thinking: b.thinking, signature: b.signature }];
      });
      if (content.length > 0) out.push({ role: "assistant", content });
    } else {
      const result: Block = {
        type: "tool_result",
        tool_use_id: m.toolCallId,
        content: m.content.length > 0 ? userBlocks(m.content, model) : [{ type: "text", text: "(no output)" }],
      };
      if (m.isError) result.is_error = true;
      const last = out.at(-1);
      if (last?.role === "user" && last.content.every((b) => b.type === "tool_result")) last.content.push(result);
      else out.push({ role: "user", content: [result] });
    }
  }
  return out;
}

/** Marks the last block of the last two user messages as cache breakpoints. */
function markCache(messages: WireMessage[]): void {
  let marked = 0;
  for (let i = messages.length - 1; i >= 0 && marked < 2; i--) {
    const m = messages[i]!;
    if (m.role !== "user") continue;
    const last = m.content.at(-1);
    if (last) last.cache_control = EPHEMERAL;
    marked++;
  }
}

export function anthropicPayload(request: ProviderRequest): Record<string, unknown> {
  const { model } = request;
  const cache = model.compat?.promptCache !== false;
  const messages = anthropicMessages(request.messages, model);
  if (cache) markCache(messages);
  let maxTokens = request.maxTokens ?? model.maxOutput;
  const body: Record<string, unknown> = { model: model.id, messages, stream: true };
  if (request.systemPrompt)
    body.system = [{ type: "text", text: request.systemPrompt, ...(cache ? { cache_control: EPHEMERAL } : {}) }];
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t, i) => {
      const marked = cache && i === request.tools.length - 1;
      return tools.of(t, marked ? "cached" : "", (input_schema) => ({
        name: t.name,
        description: t.description,
        input_schema,
        ...(marked ? { cache_control: { ...EPHEMERAL } } : {}),
      }));
    });
  }
  if (request.reasoning && model.reasoning && model.compat?.adaptiveThinking === true) {
    // Models with adaptive thinking decide the budget themselves; the level becomes the effort.
    body.thinking = { type: "adaptive" };
    body.output_config = { effort: request.reasoning === "minimal" ? "low" : request.reasoning };
  } else if (request.reasoning && model.reasoning) {
    const budget = Math.min(BUDGET[request.reasoning], Math.max(1024, model.maxOutput - 1024));
    maxTokens = Math.max(maxTokens, budget + 1024);
    body.thinking = { type: "enabled", budget_tokens: budget };
  } else if (request.temperature !== undefined) {
    // The API refuses a temperature together with extended thinking.
    body.temperature = request.temperature;
  }
  body.max_tokens = maxTokens;
  return body;
}
