/**
 * Built-in OpenAI models for Chat Completions. Prices are US dollars per million tokens as OpenAI lists
 * them; `cacheRead` is the cached-input price. Settings can add models or override any field.
 */
import type { ModelInfo } from "@keel/extensions-api";

type Row = [id: string, contextWindow: number, maxOutput: number, input: number, output: number, cacheRead: number, reasoning: boolean];

const ROWS: Row[] = [
  ["gpt-5", 400_000, 128_000, 1.25, 10, 0.125, true],
  ["gpt-5-mini", 400_000, 128_000, 0.25, 2, 0.025, true],
  ["gpt-5-nano", 400_000, 128_000, 0.05, 0.4, 0.005, true],
  ["gpt-4.1", 1_047_576, 32_768, 2, 8, 0.5, false],
  ["gpt-4.1-mini", 1_047_576, 32_768, 0.4, 1.6, 0.1, false],
  ["gpt-4.1-nano", 1_047_576, 32_768, 0.1, 0.4, 0.025, false],
  ["gpt-4o", 128_000, 16_384, 2.5, 10, 1.25, false],
  ["gpt-4o-mini", 128_000, 16_384, 0.15, 0.6, 0.075, false],
  ["o3", 200_000, 100_000, 2, 8, 0.5, true],
  ["o4-mini", 200_000, 100_000, 1.1, 4.4, 0.275, true],
];

/** The table for a provider id (`openai`, or `openai-responses` which serves the same models). */
export function openaiModels(provider: string): ModelInfo[] {
  return ROWS.map(([id, contextWindow, maxOutput, input, output, cacheRead, reasoning]) => ({
    id,
    provider,
    contextWindow,
    maxOutput,
    cost: { input, output, cacheRead, cacheWrite: 0 },
    reasoning,
    input: ["text", "image"],
    compat: { maxTokensField: "max_completion_tokens", systemRole: reasoning ? "developer" : "system", reasoningEffort: reasoning },
  }));
}
