/**
 * Hooks: the decision points of a run. Unlike events, hooks are awaited, ordered, and their results matter.
 * Each hook has one kind, which fixes how handler results combine and what a failing handler means:
 *
 * - guard      series; the first `{ block }` stops the chain; `{ rewrite }` changes what later guards and the
 *              host see. A guard that throws or times out BLOCKS (fails closed).
 * - transform  series waterfall; each handler gets the value the previous one returned. A transform that
 *              throws, times out or returns a value of the wrong type is SKIPPED (fails open) and reported
 *              as `plugin_error`.
 * - provide    series; the first handler that returns something other than `undefined` answers. Errors are
 *              skipped and reported.
 * - lifecycle  parallel, awaited; errors are reported and never stop the others.
 *
 * Order within a hook: ascending `stage` (named constants below), then registration order; `before` puts a
 * handler ahead of the named ones.
 */
import type { CompactRequest, CompactResult } from "./compaction.js";
import type { AssistantMessage, Message, ToolCall, ToolResultMessage, UserContent } from "./messages.js";
import type { ModelInfo, ProviderRequest } from "./provider.js";
import type { UiRequest, UiResponse } from "./ui.js";

/** Security boundaries (sandboxes, workspace rules) decide first. */
export const STAGE_SECURITY = -200;
/** Permission policies and approval gates. */
export const STAGE_POLICY = -100;
export const STAGE_DEFAULT = 0;
/** Handlers that add to or reshape a value others produced. */
export const STAGE_ENRICH = 50;
/** Observers that want the final value; they should not change it. */
export const STAGE_OBSERVE = 100;

export type HookKind = "guard" | "transform" | "provide" | "lifecycle";
/** How long a hook's subject lives: the process, one session, or one turn. Documentation only. */
export type HookLifetime = "process" | "session" | "turn";

/** What a guard handler answers. `undefined` means "no objection". */
export type GuardDecision<E> = void | undefined | { block: true; reason: string } | { rewrite: Partial<E> };

/** Passed to every handler. */
export interface HookContext {
  /** Aborted when the handler timed out or the run was aborted. */
  signal: AbortSignal;
  /**
   * The subagent whose loop made this call (`SubagentRequest.name`, e.g. `task:explore`); undefined for the
   * session's own agent and for hooks outside a loop.
   */
  agent?: string;
}

declare const kindBrand: unique symbol;
interface Guard<E> {
  [kindBrand]?: "guard";
  event: E;
}
interface Transform<V, I> {
  [kindBrand]?: "transform";
  value: V;
  info: I;
}
interface Provide<R, A> {
  [kindBrand]?: "provide";
  request: R;
  answer: A;
}
interface Lifecycle<E> {
  [kindBrand]?: "lifecycle";
  event: E;
}

export interface ToolCallEvent {
  toolCallId: string;
  toolName: string;
  /** The validated input; a `rewrite` replaces it (and is validated again). */
  input: Record<string, unknown>;
  readOnly: boolean;
}
export interface InputEvent {
  content: string | UserContent[];
  /** Where it came from: the first prompt, a steering message, a follow-up. */
  source: "prompt" | "steer" | "follow_up";
}
export interface SystemPromptInfo {
  cwd: string;
  model: ModelInfo;
  toolNames: string[];
  /**
   * The distribution's prompt additions, already at the end of the value (after the `systemPrompt` setting):
   * a plugin that writes its own words when no prompt is set tells the two apart with them.
   */
  additions?: readonly string[];
}
export interface ContextInfo {
  turn: number;
  model: ModelInfo;
}
export interface ProviderPayload {
  payload: unknown;
  headers: Record<string, string>;
}
export interface ToolResultInfo {
  toolCall: ToolCall;
  input: unknown;
}
export interface StopRequest {
  /** The final assistant message of the run. */
  message: AssistantMessage;
  /** How many times a `stop` handler has already continued this run. */
  continuations: number;
}
export interface SessionInfo {
  cwd: string;
  sessionId?: string;
  /** On `session_end` only: why the session ended. */
  reason?: SessionEndReason;
}
/**
 * Why a session ended: `exit` — the user left an interactive session (`/exit`, end of input, Ctrl-C while
 * idle); `completed` — a one-shot run (`-p`, `--mode json`) or a mode finished by itself; `signal` — SIGTERM;
 * `other` — anything else (a failure, a host shutting down a test runtime).
 */
export type SessionEndReason = "exit" | "completed" | "signal" | "other";
/**
 * A project folder holds configuration that can run code or redirect credentials (`.keel/settings.json`, …).
 * Asked once per start, before the project's settings are merged and before plugins other than the deciders
 * load, so only plugins from the distribution, the user's folder, `--plugin` or the managed layer can answer.
 */
export interface ProjectTrustRequest {
  /** The project folder (its real path). */
  dir: string;
  /** Its configuration files that apply only once trusted, relative to `dir`. */
  files: string[];
  /** The settings keys the project sets that apply only once trusted (`providers`, `plugins.disabled`, …). */
  keys: string[];
  /** The decision remembered for exactly these files; undefined when none is, or the files changed since. */
  remembered?: boolean;
  /** `--trust` was given: the user trusts the folder for this run. */
  granted: boolean;
  /** The session runs an interactive UI that may ask; false for print, JSON and RPC modes and subcommands. */
  interactive: boolean;
  /**
   * The mode that will run when `interactive`: the one named on the command line, else the default one
   * (`tui` on a terminal that can draw it, `interactive` otherwise) — so the UI that will run is the one asking.
   */
  mode?: string;
}
export interface ProjectTrustAnswer {
  trusted: boolean;
  /** Save the decision in the user's trust store (with a hash of the files: a change asks again). */
  remember?: boolean;
  /** Shown when the answer is "not trusted". */
  reason?: string;
}

/**
 * The hook catalog, as types. Each entry names the kind and its data; `HOOKS` below carries the same names
 * with their defaults and their documentation (the one place a hook is described: the docs are generated from
 * it), and the compiler checks the two lists match.
 */
export interface HookTypes {
  tool_call: Guard<ToolCallEvent>;
  input: Guard<InputEvent>;
  compact_before: Guard<{ reason: CompactRequest["reason"]; tokensBefore: number }>;
  system_prompt: Transform<string, SystemPromptInfo>;
  context: Transform<Message[], ContextInfo>;
  provider_request: Transform<
    ProviderPayload,
    { provider: string; model: string; reasoning?: ProviderRequest["reasoning"] }
  >;
  tool_result: Transform<ToolResultMessage, ToolResultInfo>;
  message_end: Transform<AssistantMessage, { turn: number }>;
  resolve_model: Provide<{ provider?: string; model?: string; available: ModelInfo[] }, ModelInfo>;
  compact: Provide<CompactRequest, CompactResult>;
  ui_request: Provide<UiRequest, UiResponse>;
  stop: Provide<StopRequest, { continueWith: string }>;
  project_trust: Provide<ProjectTrustRequest, ProjectTrustAnswer>;
  session_start: Lifecycle<SessionInfo>;
  session_end: Lifecycle<SessionInfo>;
  agent_end: Lifecycle<RunEnd>;
  shutdown: Lifecycle<Record<string, never>>;
}

/** How a run ended: the `agent_end` hook and event both carry it. `messages` are the ones the run added. */
export interface RunEnd {
  runId: string;
  reason: RunEndReason;
  messages: Message[];
  errorMessage?: string;
}

/** Why a run ended. */
export type RunEndReason = "stop" | "aborted" | "error" | "max_steps" | "malformed_limit";

export type HookName = keyof HookTypes;
export type HookKindOf<K extends HookName> = NonNullable<HookTypes[K][typeof kindBrand]>;

/** The handler type of hook `K`. */
export type HookHandler<K extends HookName> =
  HookTypes[K] extends Guard<infer E>
    ? (event: E, ctx: HookContext) => GuardDecision<E> | Promise<GuardDecision<E>>
    : HookTypes[K] extends Transform<infer V, infer I>
      ? (value: V, info: I, ctx: HookContext) => V | Promise<V>
      : HookTypes[K] extends Provide<infer R, infer A>
        ? (request: R, ctx: HookContext) => A | undefined | void | Promise<A | undefined | void>
        : HookTypes[K] extends Lifecycle<infer E>
          ? (event: E, ctx: HookContext) => void | Promise<void>
          : never;

/** Argument types of a guard or lifecycle hook's event, a transform's value, a provide hook's request. */
export type HookInput<K extends HookName> =
  HookTypes[K] extends Guard<infer E>
    ? E
    : HookTypes[K] extends Transform<infer V, unknown>
      ? V
      : HookTypes[K] extends Provide<infer R, unknown>
        ? R
        : HookTypes[K] extends Lifecycle<infer E>
          ? E
          : never;

export interface TapOptions {
  /** Shown in errors and listings; defaults to the plugin's name. */
  name?: string;
  /** Order: lower runs first. Use the `STAGE_*` constants. */
  stage?: number;
  /** Run before the handlers with these names. */
  before?: string | string[];
  /** Per-handler timeout; `Infinity` for handlers that wait for a person. Defaults to the hook's own. */
  timeoutMs?: number;
}

/** What `api.hooks` offers a plugin. Handlers are removed when the plugin is disposed. */
export interface HookRegistrar {
  tap<K extends HookName>(hook: K, handler: HookHandler<K>): () => void;
  tap<K extends HookName>(hook: K, options: TapOptions, handler: HookHandler<K>): () => void;
}

export interface HookSpec {
  kind: HookKind;
  lifetime: HookLifetime;
  /** Default per-handler timeout in ms. */
  timeoutMs: number;
  doc: string;
}

/**
 * The hook catalog with defaults and THE documentation of each hook; `docs/hooks-and-events.md` is generated from it.
 */
export const HOOKS = {
  tool_call: {
    kind: "guard",
    lifetime: "turn",
    timeoutMs: 30_000,
    doc: "Before a tool runs: allow, block with a reason the model sees, or rewrite the input.",
  },
  input: {
    kind: "guard",
    lifetime: "turn",
    timeoutMs: 10_000,
    doc:
      "A user message (prompt, steering, follow-up) before it enters the history: block it (it " +
      "is dropped) or rewrite it.",
  },
  compact_before: {
    kind: "guard",
    lifetime: "session",
    timeoutMs: 10_000,
    doc: "Before compaction: block to keep the full context this time.",
  },
  system_prompt: {
    kind: "transform",
    lifetime: "session",
    timeoutMs: 5_000,
    doc: "The system prompt, built by context plugins in stage order: each returns it with its part added.",
  },
  context: {
    kind: "transform",
    lifetime: "turn",
    timeoutMs: 10_000,
    doc: "The messages of one request, on a copy: what the model sees, not what the session keeps.",
  },
  provider_request: {
    kind: "transform",
    lifetime: "turn",
    timeoutMs: 5_000,
    doc: "The wire payload and headers, once per HTTP attempt.",
  },
  tool_result: {
    kind: "transform",
    lifetime: "turn",
    timeoutMs: 10_000,
    doc: "A tool's result before it enters the history.",
  },
  message_end: {
    kind: "transform",
    lifetime: "turn",
    timeoutMs: 5_000,
    doc: "An assistant message before it enters the history.",
  },
  resolve_model: {
    kind: "provide",
    lifetime: "process",
    timeoutMs: 5_000,
    doc: "Picks the model for `--provider` / `--model`; the host's own rule applies when nobody answers.",
  },
  compact: {
    kind: "provide",
    lifetime: "session",
    timeoutMs: 300_000,
    doc: "A compaction strategy summarises old messages and says where the kept part starts; the first answer wins.",
  },
  ui_request: {
    kind: "provide",
    lifetime: "session",
    timeoutMs: Infinity,
    doc: "The active UI asks the user (confirm, select, input).",
  },
  stop: {
    kind: "provide",
    lifetime: "turn",
    timeoutMs: 10_000,
    doc: "The run is about to end: answer `{ continueWith }` to send one more user message instead.",
  },
  project_trust: {
    kind: "provide",
    lifetime: "process",
    timeoutMs: Infinity,
    doc:
      "Trust the project folder's own configuration? Asked once per start, before it is merged; " +
      "unanswered: `--trust`, else the remembered decision, else not trusted.",
  },
  session_start: {
    kind: "lifecycle",
    lifetime: "session",
    timeoutMs: 10_000,
    doc:
      "A session begins (plugins are active, no prompt yet); start session work here. The host " +
      "waits for it; the `session_start` event only tells observers.",
  },
  session_end: {
    kind: "lifecycle",
    lifetime: "session",
    timeoutMs: 10_000,
    doc:
      "A session ends; stop what `session_start` started. The host waits for it; the " +
      "`session_end` event only tells observers.",
  },
  agent_end: {
    kind: "lifecycle",
    lifetime: "turn",
    timeoutMs: 30_000,
    doc:
      "A run ended (answered, aborted, failed); `messages` are the ones it added. Awaited before " +
      "the run resolves; the `agent_end` event, with the same payload, fires just before, for observers.",
  },
  shutdown: { kind: "lifecycle", lifetime: "process", timeoutMs: 5_000, doc: "The process is about to exit." },
} as const satisfies { [K in HookName]: HookSpec & { kind: HookKindOf<K> } };

/** Compile-time check that `HOOKS` names every hook in `HookTypes`. */
type MissingHooks = Exclude<HookName, keyof typeof HOOKS>;
const _allHooksListed: MissingHooks extends never ? true : never = true;
void _allHooksListed;
