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
  const out: Message[] = [];
  // The calls of the last assistant message still waiting for a result (a session written before ids were
  // made unique may hold one id twice: each occurrence takes one result).
  let open: ToolCall[] = [];
  const closeOpen = () => {
    for (const call of open) out.push(missingResult(call.id, call.name));
    open = [];
  };
  for (const message of messages) {
    if (message.role === "toolResult") {
      const waiting = open.findIndex((call) => call.id === message.toolCallId);
      if (waiting >= 0) {
        open.splice(waiting, 1);
        out.push(message);
      }
      continue;
    }
    closeOpen();
    if (isDropped(message)) continue;
    out.push(message);
    if (message.role === "assistant") open = message.content.filter((b): b is ToolCall => b.type === "toolCall");
  }
  closeOpen();
  return out;
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
