/**
 * Helpers for compaction strategy plugins: which strategy the settings select, where to cut the history, and
 * what the dropped part touched. Every strategy (first-party or not) uses these, so "never cut at a tool
 * result" and "split an oversized turn" mean the same thing whichever strategy runs.
 */
import { z } from "zod";
import { lazySchema } from "./lazy-schema.js";
import type { CompactRequest } from "./compaction.js";
import type { Message } from "./messages.js";
import { textOf, toolCallsOf } from "./messages.js";
import type { ModelInfo } from "./provider.js";

export const DEFAULT_KEEP_RECENT_TOKENS = 20_000;
export const DEFAULT_COMPACTION_STRATEGY = "summary";

const ByModelSchema = lazySchema(() =>
  z.union([
    z.string().transform((strategy) => ({ strategy, keepRecentTokens: undefined })),
    z.object({ strategy: z.string().optional(), keepRecentTokens: z.number().int().nonnegative().optional() }),
  ]),
);

/**
 * The shared `compaction` section of settings.json. The host reads `reserveTokens`; strategies read the rest.
 * `byModel` keys are `provider/model` or a bare model id; a string value names the strategy.
 */
export const CompactionSettingsSchema = lazySchema(() =>
  z
    .looseObject({
      strategy: z.string().default(DEFAULT_COMPACTION_STRATEGY),
      keepRecentTokens: z.number().int().nonnegative().default(DEFAULT_KEEP_RECENT_TOKENS),
      byModel: z.record(z.string(), ByModelSchema).default({}),
    })
    .default({ strategy: DEFAULT_COMPACTION_STRATEGY, keepRecentTokens: DEFAULT_KEEP_RECENT_TOKENS, byModel: {} }),
);

/** The strategy and keep budget that apply to one model. */
export interface CompactionChoice {
  strategy: string;
  keepRecentTokens: number;
}

/**
 * Which strategy the settings select for `model`, and its keep budget. A strategy's `compact` handler answers
 * only when `strategy` is its own name, so several strategies can be installed side by side. Throws when the
 * `compaction` section is invalid, naming the field.
 */
export function compactionChoice(
  allSettings: Readonly<Record<string, unknown>>,
  model: Pick<ModelInfo, "id" | "provider">,
): CompactionChoice {
  const parsed = CompactionSettingsSchema.safeParse(allSettings.compaction);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `settings.json: compaction.${issue?.path.join(".") ?? ""} is invalid ` +
        `(${issue?.message ?? "unknown"}); fix or remove it`,
    );
  }
  const s = parsed.data;
  const own = s.byModel[`${model.provider}/${model.id}`] ?? s.byModel[model.id];
  return { strategy: own?.strategy ?? s.strategy, keepRecentTokens: own?.keepRecentTokens ?? s.keepRecentTokens };
}

/**
 * A rough token count of one message: UTF-8 bytes / 4, images at a flat 1,200. The one estimator keel uses
 * (the kernel's compaction threshold and the strategies' cut points).
 */
export function estimateTokens(message: Message): number {
  if (typeof message.content === "string") return Math.ceil(Buffer.byteLength(message.content) / 4);
  let bytes = 0;
  let images = 0;
  for (const block of message.content) {
    if (block.type === "text") bytes += Buffer.byteLength(block.text);
    else if (block.type === "thinking") bytes += Buffer.byteLength(block.thinking);
    else if (block.type === "toolCall") bytes += block.name.length + Buffer.byteLength(block.arguments);
    else if (block.type === "image") images++;
  }
  return Math.ceil(bytes / 4) + images * 1_200;
}

/**
 * Where to cut. The history becomes `[summary, ...messages.slice(firstKeptIndex)]`, and the summary covers
 * `messages[start .. turnStart ?? firstKeptIndex)` plus, for a split turn, `messages[turnStart .. firstKeptIndex)`.
 */
export interface CutPoint {
  /** First message summarised: 1 when `messages[0]` is the previous summary (updated, not summarised again). */
  start: number;
  /** First message kept verbatim: a user or assistant message, or `messages.length` when nothing is kept. */
  firstKeptIndex: number;
  /** Set when one turn was bigger than the budget and was split: the index of that turn's first message. */
  turnStart?: number;
}

/**
 * Chooses the cut point: keeps the most recent whole turns (a turn starts at a user message) that fit in
 * `keepRecentTokens`, but never more than half of the history, so compaction always frees room. When even the
 * last turn does not fit, that turn is split at the earliest assistant message whose tail fits (or, failing
 * that, kept not at all). Never cuts at a tool result. Returns undefined when there is nothing to summarise.
 *
 * `tokensBefore` (the host's corrected estimate) scales the per-message estimates so both agree.
 */
export function findCutPoint(
  messages: readonly Message[],
  options: { keepRecentTokens: number; tokensBefore?: number },
): CutPoint | undefined {
  const start = messages[0]?.role === "user" && messages[0].kind === "compaction_summary" ? 1 : 0;
  if (messages.length <= start) return undefined;
  const raw = messages.map(estimateTokens);
  const rawTotal = raw.reduce((a, b) => a + b, 0);
  const scale = options.tokensBefore && rawTotal > 0 ? options.tokensBefore / rawTotal : 1;
  const tokens = raw.map((t) => t * scale);
  const suffix = new Array<number>(messages.length + 1).fill(0);
  for (let i = messages.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + tokens[i]!;
  const budget = Math.min(options.keepRecentTokens, suffix[start]! / 2);

  const turnStarts: number[] = [];
  for (let i = start; i < messages.length; i++) if (messages[i]!.role === "user" || i === start) turnStarts.push(i);

  const whole = turnStarts.find((i) => i > start && suffix[i]! <= budget);
  if (whole !== undefined) return { start, firstKeptIndex: whole };

  const lastTurn = turnStarts[turnStarts.length - 1]!;
  let firstKeptIndex = messages.length;
  for (let i = lastTurn + 1; i < messages.length; i++) {
    if (messages[i]!.role === "assistant" && suffix[i]! <= budget) {
      firstKeptIndex = i;
      break;
    }
  }
  if (firstKeptIndex <= start) return undefined;
  return lastTurn === firstKeptIndex ? { start, firstKeptIndex } : { start, firstKeptIndex, turnStart: lastTurn };
}

/** What a span of messages did, for notes and summaries: tools called and files read or changed. */
export interface ActivityDigest {
  /** Distinct tool names in first-use order. */
  tools: string[];
  filesRead: string[];
  filesModified: string[];
  /** Number of user messages (turns) in the span. */
  turns: number;
}

const MODIFYING_TOOL = /write|edit|patch|create|delete|remove|move|rename|mkdir/i;
const PATH_KEYS = ["path", "file_path", "filePath", "file", "filename"];

/**
 * Collects tool names and file paths from tool calls. A call's file is the first of `path`, `file_path`,
 * `filePath`, `file`, `filename` in its arguments; a tool whose name says write/edit/patch/... modified it.
 */
export function digestActivity(messages: readonly Message[]): ActivityDigest {
  const tools = new Set<string>();
  const read = new Set<string>();
  const modified = new Set<string>();
  let turns = 0;
  for (const message of messages) {
    if (message.role === "user" && message.kind === undefined) turns++;
    if (message.role !== "assistant") continue;
    for (const call of toolCallsOf(message)) {
      tools.add(call.name);
      const file = fileArgument(call.arguments);
      if (file) (MODIFYING_TOOL.test(call.name) ? modified : read).add(file);
    }
  }
  for (const file of modified) read.delete(file);
  return { tools: [...tools], filesRead: [...read], filesModified: [...modified], turns };
}

function fileArgument(json: string): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof args !== "object" || args === null) return undefined;
  for (const key of PATH_KEYS) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === "string" && value.length > 0) return value;
  }
  return undefined;
}

/** The messages a strategy summarises for a cut: the history part and, for a split turn, the turn's start. */
export function partsToSummarise(
  request: Pick<CompactRequest, "messages">,
  cut: CutPoint,
): { history: Message[]; turnPrefix: Message[] } {
  const historyEnd = cut.turnStart ?? cut.firstKeptIndex;
  return {
    history: request.messages.slice(cut.start, historyEnd),
    turnPrefix: cut.turnStart === undefined ? [] : request.messages.slice(cut.turnStart, cut.firstKeptIndex),
  };
}

const RESULT_LIMIT = 2_000;

/**
 * A conversation as plain text for a model that summarises it: one `[role]: text` block per message, tool
 * calls with their arguments, tool results cut to 2,000 characters, thinking left out.
 */
export function conversationText(messages: readonly Message[]): string {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      const who =
        m.kind === "branch_summary"
          ? "branch summary"
          : m.kind === "compaction_summary"
            ? "earlier summary"
            : m.kind === "custom"
              ? "note"
              : "user";
      const text =
        typeof m.content === "string"
          ? m.content
          : m.content.map((b) => (b.type === "text" ? b.text : "[image]")).join("");
      out.push(`[${who}]: ${text}`);
    } else if (m.role === "assistant") {
      const text = textOf(m).trim();
      if (text) out.push(`[assistant]: ${text}`);
      for (const call of toolCallsOf(m)) out.push(`[assistant calls ${call.name}]: ${call.arguments}`);
      if (m.stopReason === "error" || m.stopReason === "aborted")
        out.push(`[assistant reply ${m.stopReason}]: ${m.errorMessage ?? ""}`);
    } else {
      const text = textOf(m);
      const cut =
        text.length > RESULT_LIMIT
          ? `${text.slice(0, RESULT_LIMIT)}\n[… ${text.length - RESULT_LIMIT} more characters]`
          : text;
      out.push(`[${m.isError ? "error from" : "result of"} ${m.toolName}]: ${cut}`);
    }
  }
  return out.join("\n\n");
}
