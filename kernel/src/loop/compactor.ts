/**
 * When and how the history is compacted. The kernel decides when (a threshold between turns, a provider's
 * context-overflow error, or `/compact`); a strategy plugin answering the `compact` hook decides what the
 * summary says and where to cut. The summary enters as a record, never as instructions.
 */
import { type CompactionReason, type Message, type ModelInfo } from "@keel/extensions-api";
import { compactionSummaryMessage, summaryOf } from "@keel/extensions-api/compaction";
import type { EventBus } from "../bus/event-bus.js";
import { errorText } from "../bus/event-bus.js";
import type { HookBus } from "../hooks/hook-bus.js";
import type { TokenEstimator } from "./token-estimate.js";

export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
}

export interface CompactorDeps {
  bus: EventBus;
  hooks: HookBus;
  estimator: TokenEstimator;
  settings: CompactionSettings;
  /** What the model sees of the messages (`toModelContext`). */
  view(): Message[];
  setMessages(messages: Message[]): void;
  /** Called once the new history is in place and `compaction_end` has been published. */
  compacted(): void;
}

export class Compactor {
  constructor(private readonly deps: CompactorDeps) {}

  /** Whether the context has grown past the model's window minus the reserve. */
  needed(model: ModelInfo): boolean {
    if (!this.deps.settings.enabled || !this.deps.hooks.has("compact")) return false;
    const limit = model.contextWindow - this.deps.settings.reserveTokens;
    return this.deps.estimator.estimate(this.deps.view()) > limit;
  }

  /** Compacts now. Resolves undefined when nothing changed. */
  async compact(
    reason: CompactionReason,
    model: ModelInfo,
    signal: AbortSignal,
    instructions?: string,
  ): Promise<{ tokensBefore: number; tokensAfter: number } | undefined> {
    const { bus, hooks, estimator } = this.deps;
    const messages = this.deps.view();
    if (messages.length < 2) return undefined;
    const tokensBefore = estimator.estimate(messages);
    const allowed = await hooks.guard("compact_before", { reason, tokensBefore }, signal);
    if (allowed.blocked) return undefined;

    bus.emit("compaction_start", { reason, tokensBefore });
    const end = (fields: {
      tokensAfter?: number;
      summary?: string;
      firstKeptIndex?: number;
      details?: unknown;
      errorMessage?: string;
    }) =>
      bus.emit("compaction_end", { reason, tokensBefore, tokensAfter: fields.tokensAfter ?? tokensBefore, ...fields });
    if (!hooks.has("compact")) {
      end({ errorMessage: "No compaction strategy is installed (a plugin answering the compact hook)." });
      return undefined;
    }
    const previousSummary = messages[0] ? summaryOf(messages[0]) : undefined;
    let answer;
    try {
      answer = await hooks.provide(
        "compact",
        { messages, model, reason, instructions, previousSummary, tokensBefore, signal },
        signal,
      );
    } catch (error) {
      end({ errorMessage: errorText(error) });
      return undefined;
    }
    if (!answer) {
      end({ errorMessage: "No compaction strategy answered." });
      return undefined;
    }
    const problem = checkCut(messages, answer.firstKeptIndex);
    if (problem) {
      end({ errorMessage: `The compaction strategy returned an invalid cut point: ${problem}` });
      return undefined;
    }
    const next = [compactionSummaryMessage(answer.summary), ...messages.slice(answer.firstKeptIndex)];
    this.deps.setMessages(next);
    estimator.forget();
    const tokensAfter = estimator.estimate(next);
    end({ tokensAfter, summary: answer.summary, firstKeptIndex: answer.firstKeptIndex, details: answer.details });
    this.deps.compacted();
    return { tokensBefore, tokensAfter };
  }
}

function checkCut(messages: readonly Message[], index: number): string | undefined {
  if (!Number.isInteger(index) || index < 0 || index > messages.length)
    return `firstKeptIndex ${index} is outside 0..${messages.length}`;
  if (index < messages.length && messages[index]!.role === "toolResult")
    return (
      `firstKeptIndex ${index} points at a tool result; ` + "the first kept message must be a user or assistant message"
    );
  return undefined;
}
