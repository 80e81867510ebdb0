/**
 * Providers: the port between the loop and a model API. A provider plugin maps keel's messages and tools to a
 * wire format, streams the reply back as `StreamEvent`s, and ends with exactly one final assistant message.
 */
import type { AssistantMessage, Message } from "./messages.js";

/** Prices in US dollars per million tokens. */
export interface ModelCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** 1-hour cache writes (Anthropic prices them apart); `cacheWrite` when absent. */
  cacheWrite1h?: number;
}

/** What keel knows about one model. */
export interface ModelInfo {
  id: string;
  /** The provider id that serves it (`--provider`). */
  provider: string;
  name?: string;
  contextWindow: number;
  maxOutput: number;
  cost?: ModelCost;
  /** Whether the model can reason (thinking / reasoning effort). */
  reasoning?: boolean;
  /** Input kinds the model accepts. Defaults to text only. */
  input?: ("text" | "image")[];
  /** Wire-format quirks a provider plugin reads (e.g. `maxTokensField`, `systemRole`). */
  compat?: Record<string, unknown>;
}

/** A tool as the provider presents it to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the input (derived from the tool's zod schema). */
  parameters: Record<string, unknown>;
}

/**
 * How hard a model is asked to think before answering: `off` asks for nothing (the provider's default), the
 * others map to each wire format's control (Anthropic thinking budgets, OpenAI `reasoning_effort`, Responses
 * `reasoning.effort`). Applied only to models that reason (`ModelInfo.reasoning`).
 */
export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high"] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

/** Everything a provider needs for one request. Messages are already valid: every call has one result. */
export interface ProviderRequest {
  model: ModelInfo;
  systemPrompt: string;
  messages: Message[];
  tools: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
  /** Requested reasoning effort for models that reason; absent when the thinking level is `off`. */
  reasoning?: Exclude<ThinkingLevel, "off">;
  /** A stable id for the conversation, for providers that cache by session. */
  sessionId?: string;
}

/** Information about a retry the provider is about to make; the host turns it into a `retry_start` event. */
export interface RetryInfo {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  reason: string;
}

export interface StreamOptions {
  /** Aborting cancels the HTTP request; the stream then ends with stop reason `aborted`. */
  signal: AbortSignal;
  /**
   * Lets plugins inspect or change the wire payload and headers before they are sent (the `provider_request`
   * hook). Providers must call it once per HTTP attempt and send what it returns.
   */
  onPayload?: (
    payload: unknown,
    headers: Record<string, string>,
  ) => Promise<{ payload: unknown; headers: Record<string, string> }>;
  /** Called before each retry wait. */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * One streamed piece of a reply. `index` is the position of the block in `AssistantMessage.content`.
 * `partial` is the message built so far (UIs render it directly). Every stream ends with `done` or `error`.
 */
export type StreamEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; index: number; partial: AssistantMessage }
  | { type: "text_delta"; index: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; index: number; partial: AssistantMessage }
  | { type: "thinking_start"; index: number; partial: AssistantMessage }
  | { type: "thinking_delta"; index: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; index: number; partial: AssistantMessage }
  | { type: "toolcall_start"; index: number; id: string; name: string; partial: AssistantMessage }
  | { type: "toolcall_delta"; index: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; index: number; partial: AssistantMessage }
  | { type: "done"; message: AssistantMessage }
  | { type: "error"; message: AssistantMessage };

/** The delta events a UI sees in `message_update` (everything but start/done/error). */
export type StreamDelta = Exclude<StreamEvent, { type: "start" } | { type: "done" } | { type: "error" }>;

/** A model API. Registered by a provider plugin with `api.registerProvider()`. */
export interface Provider {
  /** The id users pass to `--provider` (e.g. `anthropic`). */
  id: string;
  name?: string;
  /** Models this provider serves. Called when models are listed or resolved. */
  models(): ModelInfo[];
  /**
   * Checks, before any request, that the provider can be used (e.g. that an API key is set). Returns an error
   * text saying what is missing and how to fix it, or undefined when ready.
   */
  checkReady?(model: ModelInfo): Promise<string | undefined> | string | undefined;
  /**
   * Checks cheaply that the provider's endpoint can be reached, sending nothing that costs tokens (the kit's
   * providers open a TCP connection to the base URL and close it), within about 1.5 s. Returns the problem and
   * what to check, or undefined when it answers. UIs call it at start, without waiting for it to draw.
   */
  probe?(model: ModelInfo): Promise<string | undefined>;
  /**
   * Streams one reply. Must never throw: every failure (HTTP, network, malformed data, abort) ends the stream
   * with an `error` event whose message has stop reason `error` or `aborted` and an `errorMessage`.
   */
  stream(request: ProviderRequest, options: StreamOptions): AsyncIterable<StreamEvent>;
}
