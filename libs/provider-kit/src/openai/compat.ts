/**
 * Per-model quirks of Chat Completions servers, read from `ModelInfo.compat`. Defaults suit OpenAI for the
 * built-in provider and the common denominator (Ollama, llama.cpp, vLLM, LM Studio) for settings-defined ones.
 */
import type { ModelInfo } from "@keel/extensions-api";

export interface ChatCompat {
  /** `max_completion_tokens` (OpenAI) or `max_tokens` (most compatible servers). */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /** `developer` (OpenAI reasoning models) or `system`. */
  systemRole: "developer" | "system";
  /** Send `reasoning_effort` when a reasoning level is requested. */
  reasoningEffort: boolean;
  /** Send `stream_options.include_usage` (a few old servers reject it). */
  includeUsage: boolean;
  /** The answer text carries reasoning inline in `<think>…</think>` (DeepSeek-R1 on compatible servers). */
  thinkTags: boolean;
}

export function chatCompat(model: ModelInfo): ChatCompat {
  const c = model.compat ?? {};
  const official = model.provider === "openai";
  return {
    maxTokensField:
      c.maxTokensField === "max_tokens" || c.maxTokensField === "max_completion_tokens"
        ? c.maxTokensField
        : official
          ? "max_completion_tokens"
          : "max_tokens",
    systemRole:
      c.systemRole === "developer" || c.systemRole === "system"
        ? c.systemRole
        : official && model.reasoning
          ? "developer"
          : "system",
    reasoningEffort: typeof c.reasoningEffort === "boolean" ? c.reasoningEffort : Boolean(model.reasoning),
    includeUsage: typeof c.includeUsage === "boolean" ? c.includeUsage : true,
    thinkTags: c.thinkTags === true,
  };
}
