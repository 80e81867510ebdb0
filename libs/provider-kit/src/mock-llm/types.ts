/** The script a mock-LLM server plays: one turn per request, in order. */

/** A reply described once and rendered in whichever wire format the request used. */
export interface MockReply {
  thinking?: string;
  /** Anthropic thinking `signature` / Responses `encrypted_content`; a made-up value by default. */
  signature?: string;
  text?: string;
  toolCalls?: { id?: string; name: string; arguments?: string | Record<string, unknown> }[];
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  /** Defaults to `tool_use` when there are tool calls, else `stop`. */
  stop?: "stop" | "length" | "tool_use" | "pause_turn";
  /** Characters per delta (default 8). */
  chunk?: number;
}

/** Ways to break a streamed reply. */
export type MockFault =
  /** Sends the first `afterEvents` events, then resets the connection. */
  | { kind: "reset"; afterEvents: number }
  /** Mixes lines that are not SSE fields and comments between the events. */
  | { kind: "garbage" }
  /** Replaces the data of event number `at` (default: the middle one) with broken JSON. */
  | { kind: "malformed"; at?: number }
  /** Leaves out the final event (`[DONE]`, `response.completed`, `message_stop`). */
  | { kind: "truncate" }
  /**
   * Sends the first `afterEvents` events (negative: all but the last -n), then keeps the connection open until the
   * client leaves.
   */
  | { kind: "hang"; afterEvents: number }
  /** Sends the first `afterEvents` events, then only `: ping` comments every `everyMs` until the client leaves. */
  | { kind: "keepalive"; afterEvents: number; everyMs: number }
  /** After `afterEvents` events, sends the format's in-stream error event instead of the rest. */
  | { kind: "error_event"; afterEvents: number; message: string; errorType?: string };

export interface ReplyTurn {
  reply: MockReply;
  fault?: MockFault;
  /** Write the body in pieces of this many bytes (1 = a slow trickle). */
  writeBytes?: number;
  /** Pause between pieces. */
  writeDelayMs?: number;
  headers?: Record<string, string>;
}

/** Bytes recorded from a real stream, sent verbatim. */
export interface RawTurn {
  raw: string;
  writeBytes?: number;
  writeDelayMs?: number;
  headers?: Record<string, string>;
}

/** An HTTP error answer. */
export interface ErrorTurn {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON. */
  body?: string | Record<string, unknown>;
}

export type MockTurn = ReplyTurn | RawTurn | ErrorTurn;

export type WireFormatName = "openai" | "openai-responses" | "anthropic";

/** One request the server received. */
export interface RecordedRequest {
  format: WireFormatName | "unknown";
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** When the request arrived (ms since the server started), for retry timing checks. */
  at: number;
}
