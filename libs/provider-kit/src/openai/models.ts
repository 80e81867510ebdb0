/**
 * OpenAI's models, shared by the Chat Completions and Responses plugins (one table, two APIs). Prices are
 * US dollars per million tokens as OpenAI lists them; `cacheRead` is the cached-input price. Settings can
 * add models or override any field. The first row is the default model when no `--model` is given.
 */
import type { ModelSettings } from "../settings.ts";

type Row = [
  id: string,
  contextWindow: number,
  maxOutput: number,
  input: number,
  output: number,
  cacheRead: number,
  reasoning: boolean,
  responsesOnly?: boolean,
];

const ROWS: Row[] = [
  ["gpt-5", 400_000, 128_000, 1.25, 10, 0.125, true],
  ["gpt-5-mini", 400_000, 128_000, 0.25, 2, 0.025, true],
  ["gpt-5-nano", 400_000, 128_000, 0.05, 0.4, 0.005, true],
  ["gpt-5-codex", 400_000, 128_000, 1.25, 10, 0.125, true, true],
  ["gpt-4.1", 1_047_576, 32_768, 2, 8, 0.5, false],
  ["gpt-4.1-mini", 1_047_576, 32_768, 0.4, 1.6, 0.1, false],
  ["gpt-4.1-nano", 1_047_576, 32_768, 0.1, 0.4, 0.025, false],
  ["gpt-4o", 128_000, 16_384, 2.5, 10, 1.25, false],
  ["gpt-4o-mini", 128_000, 16_384, 0.15, 0.6, 0.075, false],
  ["o3", 200_000, 100_000, 2, 8, 0.5, true],
  ["o3-pro", 200_000, 100_000, 20, 80, 20, true, true],
  ["o4-mini", 200_000, 100_000, 1.1, 4.4, 0.275, true],
];

/** The table for one API; Chat Completions leaves out the models only the Responses API serves. */
export function openaiModels(api: "chat" | "responses"): ModelSettings[] {
  return ROWS.filter((row) => api === "responses" || !row[7]).map(
    ([id, contextWindow, maxOutput, input, output, cacheRead, reasoning]) => ({
      id,
      contextWindow,
      maxOutput,
      cost: { input, output, cacheRead, cacheWrite: 0 },
      reasoning,
      input: ["text", "image"],
      compat:
        api === "chat"
          ? {
              maxTokensField: "max_completion_tokens",
              systemRole: reasoning ? "developer" : "system",
              reasoningEffort: reasoning,
            }
          : {},
    }),
  );
}
