/**
 * The summary strategy: cut with the shared rules, ask the model for a structured summary of the old part
 * (updating the previous summary rather than summarising it again), and, for a split turn, a second short
 * summary of the turn's start.
 */
import {
  textOf,
  type AssistantMessage,
  type CompactRequest,
  type CompactResult,
  type Message,
  type ModelInfo,
} from "@keel/extensions-api";
import { digestActivity, findCutPoint, neutralizeSummary, partsToSummarise } from "@keel/extensions-api/compaction";
import { SYSTEM_PROMPT, historyPrompt, turnPrefixPrompt } from "./prompt.ts";

/** Calls a model once; the shape of `Runtime.complete`. */
export type Complete = (request: {
  systemPrompt: string;
  messages: Message[];
  model?: ModelInfo;
  maxTokens?: number;
  signal?: AbortSignal;
}) => Promise<AssistantMessage>;

export interface SummaryOptions {
  keepRecentTokens: number;
  complete: Complete;
  /** The model that writes the summary; the session's model when absent. */
  model?: ModelInfo;
  maxTokens: number;
}

export const TURN_HEADING = "## Current turn (its first messages were compacted)";

/** Answers a compact request, or undefined when there is nothing old enough to summarise. */
export async function compactWithSummary(
  request: CompactRequest,
  options: SummaryOptions,
): Promise<CompactResult | undefined> {
  const cut = findCutPoint(request.messages, {
    keepRecentTokens: options.keepRecentTokens,
    tokensBefore: request.tokensBefore,
  });
  if (!cut) return undefined;
  const { history, turnPrefix } = partsToSummarise(request, cut);
  const ask = (prompt: string) => askModel(prompt, request, options);

  const [historySummary, turnSummary] = await Promise.all([
    history.length > 0
      ? ask(historyPrompt(history, request.previousSummary, request.instructions))
      : Promise.resolve(request.previousSummary),
    turnPrefix.length > 0 ? ask(turnPrefixPrompt(turnPrefix)) : Promise.resolve(undefined),
  ]);
  const parts = [historySummary, turnSummary === undefined ? undefined : `${TURN_HEADING}\n${turnSummary}`].filter(
    (p): p is string => !!p,
  );
  const digest = digestActivity([...history, ...turnPrefix]);
  return {
    summary: neutralizeSummary(parts.join("\n\n")),
    firstKeptIndex: cut.firstKeptIndex,
    details: {
      strategy: "summary",
      summarised: history.length + turnPrefix.length,
      splitTurn: turnPrefix.length > 0,
      filesRead: digest.filesRead,
      filesModified: digest.filesModified,
    },
  };
}

async function askModel(prompt: string, request: CompactRequest, options: SummaryOptions): Promise<string> {
  const model = options.model ?? request.model;
  const reply = await options.complete({
    systemPrompt: SYSTEM_PROMPT,
    messages: [{ role: "user", content: prompt, timestamp: Date.now() }],
    model,
    maxTokens: options.maxTokens,
    signal: request.signal,
  });
  const name = `${model.provider}/${model.id}`;
  if (reply.stopReason === "error" || reply.stopReason === "aborted") {
    throw new Error(
      `compaction-summary: ${name} did not write the summary ` +
        `(${reply.stopReason}: ${reply.errorMessage ?? "no message"}); retry with /compact, or set ` +
        `compaction.strategy to "window" to compact without a model`,
    );
  }
  const text = textOf(reply).trim();
  if (!text)
    throw new Error(
      `compaction-summary: ${name} answered with an empty summary; retry with /compact, or set ` +
        `compaction.strategy to "window"`,
    );
  return text;
}
