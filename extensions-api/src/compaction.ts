/**
 * Compaction: replacing old messages with a summary when the context fills up. A strategy plugin answers the
 * `compact` hook; the host decides when to compact and keeps the full history in the session.
 */
import type { Message } from "./messages.js";
import type { ModelInfo } from "./provider.js";

export type CompactionReason = "threshold" | "overflow" | "manual";

export interface CompactRequest {
  /** The messages currently sent to the model, oldest first. */
  messages: Message[];
  model: ModelInfo;
  reason: CompactionReason;
  /** Free text from `/compact <instructions>`. */
  instructions?: string;
  /** The summary a previous compaction produced, to be updated rather than summarised again. */
  previousSummary?: string;
  /** Estimated tokens of `messages`. */
  tokensBefore: number;
  signal: AbortSignal;
}

export interface CompactResult {
  /** Text that replaces `messages[0 .. firstKeptIndex)`; the host wraps it as a record, not an instruction. */
  summary: string;
  /** Index into `messages` of the first message kept verbatim (a user or assistant message). */
  firstKeptIndex: number;
  /** Strategy-specific data kept in the session (files touched, ...). */
  details?: unknown;
}
