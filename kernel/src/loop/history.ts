/**
 * Valid history: what the model may see. Providers reject a tool call without its result, and a failed or
 * aborted reply should be as if it never happened. The session keeps everything; this derives the view.
 */
import type { Message, ToolCall, ToolResultMessage } from "@keel/extensions-api";

const MISSING_RESULT = "No result was recorded for this call: the run was interrupted before it finished.";

function isDropped(message: Message): boolean {
  return message.role === "assistant" && (message.stopReason === "error" || message.stopReason === "aborted");
}

/**
 * Returns the messages to send: failed and aborted assistant messages (and results of their calls) are left
 * out, results whose call is unknown are left out, and every remaining call gets exactly one result, in place.
 */
export function toModelContext(messages: readonly Message[]): Message[] {
  return new HistoryIndex().view(messages);
}

/**
 * `toModelContext` and the ids of every tool call, kept up to date as one history grows. Between replacements
 * the agent only pushes onto its history, so each request reads only what was added since the one before: a
 * 300-turn run used to walk all 600 messages three times per request (the compaction check, the request, the
 * call-id check). A different array, or one that no longer holds the last message seen where it was, is read
 * again from the start.
 */
export class HistoryIndex {
  private source: readonly Message[] | undefined;
  private seen = 0;
  /** The message at `seen - 1` when it was read: an array changed in place no longer holds it there. */
  private last: Message | undefined;
  /** The view of what was read, without the placeholder results of `open`. */
  private out: Message[] = [];
  /** The calls of the last assistant message read that still wait for a result (an id twice: two results). */
  private open: ToolCall[] = [];
  private ids = new Set<string>();

  /** The messages to send for `messages` (see `toModelContext`); a new array, the caller's to change. */
  view(messages: readonly Message[]): Message[] {
    this.read(messages);
    const view = this.out.slice();
    for (const call of this.open) view.push(missingResult(call.id, call.name));
    return view;
  }

  /** Every tool-call id of `messages`' assistant messages, failed and aborted ones included. */
  callIds(messages: readonly Message[]): ReadonlySet<string> {
    this.read(messages);
    return this.ids;
  }

  private read(messages: readonly Message[]): void {
    const grown =
      messages === this.source &&
      messages.length >= this.seen &&
      (this.seen === 0 || messages[this.seen - 1] === this.last);
    if (!grown) {
      this.source = messages;
      this.seen = 0;
      this.out = [];
      this.open = [];
      this.ids = new Set();
    }
    for (; this.seen < messages.length; this.seen++) this.add(messages[this.seen]!);
    this.last = messages[this.seen - 1];
  }

  private add(message: Message): void {
    if (message.role === "toolResult") {
      const waiting = this.open.findIndex((call) => call.id === message.toolCallId);
      if (waiting >= 0) {
        this.open.splice(waiting, 1);
        this.out.push(message);
      }
      return;
    }
    for (const call of this.open) this.out.push(missingResult(call.id, call.name));
    this.open = [];
    if (message.role === "assistant")
      for (const block of message.content) if (block.type === "toolCall") this.ids.add(block.id);
    if (isDropped(message)) return;
    this.out.push(message);
    if (message.role === "assistant") this.open = message.content.filter((b): b is ToolCall => b.type === "toolCall");
  }
}

function missingResult(toolCallId: string, toolName: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    content: [{ type: "text", text: MISSING_RESULT }],
    isError: true,
    timestamp: Date.now(),
  };
}
