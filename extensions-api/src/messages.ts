/**
 * Messages: the conversation the loop keeps and hands to providers.
 *
 * Three roles, one shape each. Providers translate these to and from their wire formats; the loop,
 * sessions and UIs only ever see these.
 */

/** Plain text. */
export interface TextContent {
  type: "text";
  text: string;
}

/** An image, base64-encoded, for providers whose model accepts images. */
export interface ImageContent {
  type: "image";
  /** Base64 data without a `data:` prefix. */
  data: string;
  /** e.g. `image/png`. */
  mimeType: string;
}

/** Reasoning the model showed. `signature` must be sent back unchanged where the provider requires it. */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  /** Opaque provider token proving the thinking is genuine (Anthropic `signature`, OpenAI encrypted reasoning). */
  signature?: string;
  /** The provider hid the text; `signature` carries it. */
  redacted?: boolean;
}

/**
 * A tool call as the model wrote it. `arguments` is the raw JSON text the model produced, kept verbatim so a
 * malformed call can be answered with a precise error and replayed to the provider exactly.
 */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: string;
}

/**
 * How deeply a tool call's arguments may nest (objects and arrays). The loop answers a deeper call with an
 * error result instead of running it, and payload builders that parse arguments back into objects send `{}`
 * for one, so no step that walks a value recursively (serialising a request, cloning it) can overflow.
 */
export const MAX_ARGUMENT_DEPTH = 100;

/**
 * The deepest nesting of objects and arrays in JSON text, found without parsing it (brackets inside strings
 * do not count). Stops counting once past `limit`.
 */
export function jsonNestingDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

export type UserContent = TextContent | ImageContent;
export type AssistantContent = TextContent | ThinkingContent | ToolCall;
export type ToolResultContent = TextContent | ImageContent;

/**
 * Why the model stopped. `error` and `aborted` messages are kept for the record but never sent back.
 * `pause_turn`: the server paused a long turn (Anthropic, during server-side tools); the loop sends the
 * conversation back at once so the model continues it.
 */
export type StopReason = "stop" | "length" | "tool_use" | "pause_turn" | "error" | "aborted";

/** Token counts and cost of one reply. Costs are in US dollars. */
export interface Usage {
  input: number;
  /** Every generated token, reasoning included (what the vendor bills as output). */
  output: number;
  cacheRead: number;
  /** Tokens written to the prompt cache; `cacheWrite1h` of them as 1-hour entries (Anthropic). */
  cacheWrite: number;
  cacheWrite1h?: number;
  /** Of `output`, the tokens spent reasoning, when the vendor says. */
  reasoning?: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

export interface UserMessage {
  role: "user";
  content: string | UserContent[];
  timestamp: number;
  /**
   * Set when the host or a plugin wrote this message rather than the user: a compaction summary, a branch
   * summary, or a plugin's message. Providers send it like any user message; UIs may show it differently.
   */
  kind?: "compaction_summary" | "branch_summary" | "custom";
}

/**
 * Kinds of failure the host acts on, set as `errorKind` on an assistant message with stop reason `error`.
 * `context_overflow`: the request did not fit the model's context window; the loop compacts (when a strategy
 * answers the `compact` hook) and sends the request once more.
 */
export const ASSISTANT_ERROR_KINDS = ["context_overflow"] as const;
export type AssistantErrorKind = (typeof ASSISTANT_ERROR_KINDS)[number];

export interface AssistantMessage {
  role: "assistant";
  /** Text, thinking and tool calls in the order the model produced them. */
  content: AssistantContent[];
  stopReason: StopReason;
  /** Set when `stopReason` is `error` or `aborted`: what went wrong, in words a user can act on. */
  errorMessage?: string;
  /** Set with stop reason `error` when the failure is one the host acts on (see `ASSISTANT_ERROR_KINDS`). */
  errorKind?: AssistantErrorKind;
  usage: Usage;
  provider: string;
  model: string;
  timestamp: number;
}

export interface ToolResultMessage<TDetails = unknown> {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: ToolResultContent[];
  /** Structured data for UIs and sessions; never sent to the model. */
  details?: TDetails;
  isError: boolean;
  timestamp: number;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A usage record with every count at zero. */
export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** The concatenated text blocks of a message (tool calls and thinking left out). */
export function textOf(message: Message): string {
  if (typeof message.content === "string") return message.content;
  let out = "";
  for (const block of message.content) if (block.type === "text") out += block.text;
  return out;
}

/** The tool calls of an assistant message, in order. */
export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((b): b is ToolCall => b.type === "toolCall");
}

/** A user message from plain text, stamped now. */
export function userMessage(content: string | UserContent[]): UserMessage {
  return { role: "user", content, timestamp: Date.now() };
}
