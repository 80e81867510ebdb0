/**
 * Built-in Anthropic models. Prices are US dollars per million tokens as Anthropic lists them: cache writes
 * cost 1.25× input for 5-minute entries and 2× for 1-hour ones, cache reads 0.1×. Settings can add models or
 * override any field. The first row is the default model when `--provider anthropic` is given without `--model`.
 */
import type { ModelSettings } from "@keel/provider-kit";

type Row = [id: string, name: string, maxOutput: number, input: number, output: number, reasoning: boolean];

const ROWS: Row[] = [
  ["claude-sonnet-4-5", "Claude Sonnet 4.5", 64_000, 3, 15, true],
  ["claude-opus-4-5", "Claude Opus 4.5", 64_000, 5, 25, true],
  ["claude-haiku-4-5", "Claude Haiku 4.5", 64_000, 1, 5, true],
  ["claude-opus-4-1", "Claude Opus 4.1", 32_000, 15, 75, true],
  ["claude-opus-4-0", "Claude Opus 4", 32_000, 15, 75, true],
  ["claude-sonnet-4-0", "Claude Sonnet 4", 64_000, 3, 15, true],
  ["claude-3-7-sonnet-latest", "Claude Sonnet 3.7", 64_000, 3, 15, true],
  ["claude-3-5-haiku-latest", "Claude Haiku 3.5", 8_192, 0.8, 4, false],
];

export function anthropicModels(): ModelSettings[] {
  return ROWS.map(([id, name, maxOutput, input, output, reasoning]) => ({
    id,
    name,
    contextWindow: 200_000,
    maxOutput,
    cost: { input, output, cacheRead: input * 0.1, cacheWrite: input * 1.25, cacheWrite1h: input * 2 },
    reasoning,
    input: ["text", "image"],
  }));
}
