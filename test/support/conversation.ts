/** Builders for conversations of known token sizes (1 token = 4 characters in the estimate). */
import {
  emptyUsage,
  type AssistantMessage,
  type Message,
  type ToolResultMessage,
  type UserMessage,
} from "@keel/extensions-api";
import { compactionSummaryMessage } from "@keel/extensions-api/compaction";

export const words = (tokens: number) => "w".repeat(tokens * 4);

export function user(tokens: number, text = ""): UserMessage {
  return { role: "user", content: text + words(tokens), timestamp: 1 };
}

export function assistant(
  tokens: number,
  calls: { name: string; args?: Record<string, unknown> }[] = [],
  text = "",
): AssistantMessage {
  return {
    role: "assistant",
    content: [
      { type: "text", text: text + words(tokens) },
      ...calls.map((c, i) => ({
        type: "toolCall" as const,
        id: `c${i}`,
        name: c.name,
        arguments: JSON.stringify(c.args ?? {}),
      })),
    ],
    stopReason: calls.length ? "tool_use" : "stop",
    usage: emptyUsage(),
    provider: "scripted",
    model: "m",
    timestamp: 1,
  };
}

export function result(name: string, tokens: number): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: "c0",
    toolName: name,
    content: [{ type: "text", text: words(tokens) }],
    isError: false,
    timestamp: 1,
  };
}

/** One turn: a user message, then `steps` assistant messages each followed by a tool result. */
export function turn(sizes: { user: number; step: number; result: number; steps: number }): Message[] {
  const out: Message[] = [user(sizes.user)];
  for (let i = 0; i < sizes.steps; i++)
    out.push(assistant(sizes.step, [{ name: "read", args: { path: `f${i}.ts` } }]), result("read", sizes.result));
  out.push(assistant(sizes.step));
  return out;
}

export const summaryMessage = (text: string) => compactionSummaryMessage(text);
