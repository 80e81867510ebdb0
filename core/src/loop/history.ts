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
  let open: { ids: string[]; answered: Set<string>; names: Map<string, string> } | undefined;
  const closeOpen = () => {
    if (!open) return;
    for (const id of open.ids) if (!open.answered.has(id)) out.push(missingResult(id, open.names.get(id) ?? "unknown"));
    open = undefined;
  };
  for (const message of messages) {
    if (message.role === "toolResult") {
      if (open && open.ids.includes(message.toolCallId) && !open.answered.has(message.toolCallId)) {
        open.answered.add(message.toolCallId);
        out.push(message);
      }
      continue;
    }
    closeOpen();
    if (isDropped(message)) continue;
    out.push(message);
    if (message.role === "assistant") {
      const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
      if (calls.length > 0) open = { ids: calls.map((c) => c.id), answered: new Set(), names: new Map(calls.map((c) => [c.id, c.name])) };
    }
  }
  closeOpen();
  return out;
}

function missingResult(toolCallId: string, toolName: string): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text: MISSING_RESULT }], isError: true, timestamp: Date.now() };
}
