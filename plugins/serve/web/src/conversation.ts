/**
 * What the page shows of a session, kept from the protocol's messages: the history (`get_messages`, then each
 * `message_end`), the reply streaming now (built from its deltas), the tool calls with what their plugins
 * render, the questions open, notices, and whether a run is going. Events the history already holds (those up
 * to the seq `get_messages` answered after) are not applied twice.
 */
import type { AssistantMessage, Message, ToolResultMessage } from "@keel/extensions-api";
import type { ServerMessage } from "./connection.ts";

export interface ToolRun {
  name: string;
  callLines?: string[];
  resultLines?: string[];
  running: boolean;
}

export interface Question {
  id: string;
  method: "confirm" | "select" | "input";
  title: string;
  message?: string;
  options?: string[];
  placeholder?: string;
}

export interface Notice {
  level: "info" | "warning" | "error";
  text: string;
}

export interface View {
  messages: Message[];
  streaming?: AssistantMessage;
  tools: Record<string, ToolRun>;
  questions: Question[];
  notices: Notice[];
  running: boolean;
}

type Block = AssistantMessage["content"][number];

export class Conversation {
  view: View = { messages: [], tools: {}, questions: [], notices: [], running: false };
  /** Events at or below this seq are in the history already. */
  private baseline = Number.POSITIVE_INFINITY;
  private held: ServerMessage[] = [];

  /** Until `reset`, events are held (the history they may already be in is on its way). */
  loading(): void {
    this.baseline = Number.POSITIVE_INFINITY;
    this.held = [];
  }

  /** The history as of `seq`; then what was held after it. */
  reset(messages: Message[], running: boolean, seq: number): void {
    this.baseline = seq;
    this.view = { ...this.view, messages, streaming: undefined, running };
    const held = this.held;
    this.held = [];
    for (const message of held) this.apply(message);
  }

  apply(message: ServerMessage): void {
    const type = message.type;
    if (type === "welcome") return this.welcome(message);
    if (type === "extension_ui_request") return this.set({ questions: [...this.view.questions, question(message)] });
    if (type === "extension_ui_closed")
      return this.set({ questions: this.view.questions.filter((q) => q.id !== message.id) });
    if (type === "notice" || type === "plugin_error" || type === "plugin_warning") return this.notice(message);
    if (this.baseline === Number.POSITIVE_INFINITY) return void this.held.push(message);
    if ((message.seq ?? 0) <= this.baseline) return;
    this.event(message);
  }

  private event(message: ServerMessage): void {
    const v = this.view;
    switch (message.type) {
      case "agent_start":
        return this.set({ running: true });
      case "agent_end":
        return this.set({ running: false, streaming: undefined });
      case "message_start": {
        const started = message.message as Message;
        if (started.role === "assistant") this.set({ streaming: { ...started, content: [] } });
        return;
      }
      case "message_update":
        return this.set({ streaming: grow(v.streaming, message.delta as Delta) });
      case "message_end":
        return this.set({ messages: [...v.messages, message.message as Message], streaming: undefined });
      case "tool_execution_start":
        return this.tool(String(message.toolCallId), {
          name: String(message.toolName),
          callLines: message.rendered as string[] | undefined,
          running: true,
        });
      case "tool_execution_end":
        return this.tool(String(message.toolCallId), {
          resultLines: message.rendered as string[] | undefined,
          running: false,
        });
      case "history_replaced":
        return this.set({ messages: [...(message.messages as Message[])], streaming: undefined, tools: {} });
      case "compaction_end":
        return this.notice({
          type: "notice",
          level: "info",
          message: `compacted: ${message.tokensBefore} → ${message.tokensAfter} tokens`,
        });
    }
  }

  private welcome(message: ServerMessage): void {
    const asked = (message.questions as ServerMessage[] | undefined) ?? [];
    if (!message.resumed) this.set({ questions: asked.map(question) });
  }

  private tool(id: string, change: Partial<ToolRun>): void {
    const before = this.view.tools[id] ?? { name: change.name ?? "tool", running: true };
    this.set({ tools: { ...this.view.tools, [id]: { ...before, ...change } } });
  }

  private notice(message: ServerMessage): void {
    const level =
      message.type === "plugin_error" ? "error" : message.type === "plugin_warning" ? "warning" : message.level;
    const who = (message.plugin as { name?: string } | undefined)?.name;
    const text = `${who ? `${who}: ` : ""}${String(message.message)}`;
    this.set({ notices: [...this.view.notices.slice(-4), { level: level as Notice["level"], text }] });
  }

  private set(change: Partial<View>): void {
    this.view = { ...this.view, ...change };
  }
}

type Delta = { type: string; index: number; delta?: string; id?: string; name?: string };

/** The streaming reply with one more delta. */
function grow(partial: AssistantMessage | undefined, delta: Delta): AssistantMessage {
  const message: AssistantMessage = partial ?? {
    role: "assistant",
    content: [],
    stopReason: "stop",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    provider: "",
    model: "",
    timestamp: Date.now(),
  };
  const content = [...message.content];
  const at = delta.index;
  const block: Block | undefined = content[at];
  if (delta.type === "text_start") content[at] = { type: "text", text: "" };
  else if (delta.type === "thinking_start") content[at] = { type: "thinking", thinking: "" };
  else if (delta.type === "toolcall_start")
    content[at] = { type: "toolCall", id: delta.id ?? "", name: delta.name ?? "", arguments: "" };
  else if (delta.type === "text_delta")
    content[at] = { type: "text", text: (block?.type === "text" ? block.text : "") + delta.delta };
  else if (delta.type === "thinking_delta")
    content[at] = { type: "thinking", thinking: (block?.type === "thinking" ? block.thinking : "") + delta.delta };
  else if (delta.type === "toolcall_delta" && block?.type === "toolCall")
    content[at] = { ...block, arguments: block.arguments + delta.delta };
  return { ...message, content };
}

function question(message: ServerMessage): Question {
  return {
    id: String(message.id),
    method: message.method as Question["method"],
    title: String(message.title),
    ...(typeof message.message === "string" && { message: message.message }),
    ...(Array.isArray(message.options) && { options: message.options as string[] }),
    ...(typeof message.placeholder === "string" && { placeholder: message.placeholder }),
  };
}

/** The tool result message answering each call, by call id. */
export function resultsById(messages: Message[]): Map<string, ToolResultMessage> {
  const results = new Map<string, ToolResultMessage>();
  for (const m of messages) if (m.role === "toolResult") results.set(m.toolCallId, m);
  return results;
}
