/** What a task's result line says, and the reasons a task can end for. */
import type { RunEndReason, Usage } from "@keel/extensions-api";

/**
 * Why a task ended: the run's own reason (`stop`, `error`, `max_steps`, …), a budget that ended it, or what kept
 * it from running: `setup_error` (its workspace or distribution), `crashed` (the keel process ended without
 * finishing the run), `failed` (the queue gave up on the job after workers holding it died).
 */
export type TaskEndReason =
  RunEndReason | "budget_turns" | "budget_tokens" | "budget_seconds" | "setup_error" | "crashed" | "failed";

export interface TaskResult {
  id: string;
  reason: TaskEndReason;
  /** The last assistant message's text. */
  finalText: string;
  /** Every reply's usage added up. */
  usage: Usage;
  /** In US dollars: `usage.cost.total`. */
  cost: number;
  /** Requests made to the model. */
  turns: number;
  durationMs: number;
  /** The folder the task ran in (a git workspace's clone). */
  workspace?: string;
  sessionId?: string;
  /** The session's file, when the session store keeps one where keel's does (session-jsonl). */
  sessionFile?: string;
  /** What went wrong, for every reason but `stop`. */
  error?: string;
}
