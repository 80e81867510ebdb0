/**
 * The conversation pane: turns the session's events into views (user messages, streaming replies, tool calls,
 * notices, plugins' entries) and redraws from the history when it is replaced (resume, /tree, compaction).
 */
import { Container, type Component } from "@earendil-works/pi-tui";
import type { AssistantMessage, Message, PluginEntry, Runtime } from "@keel/extensions-api";
import { ToolView } from "./tool-view.ts";
import { AssistantView, entryView, noticeView, userText, userView, type ViewState } from "./views.ts";

/** A call's arguments as the model wrote them (JSON text), for display until the call starts. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

export class Conversation {
  readonly container = new Container();
  private current: AssistantView | undefined;
  private readonly tools = new Map<string, ToolView>();

  constructor(
    private readonly runtime: Runtime,
    private readonly state: ViewState,
    /** Called with the text of each user message as it enters the history (the queue drops it then). */
    private readonly onUserMessage: (text: string) => void,
  ) {}

  /** Subscribes to the session's events; returns the unsubscribe function. */
  listen(changed: () => void): () => void {
    const events = this.runtime.events;
    const offs = [
      events.on("message_start", ({ message }) => {
        if (message.role === "assistant") this.assistant(message);
      }),
      events.on("message_update", ({ message }) => this.assistant(message)),
      events.on("message_end", ({ message }) => this.message(message)),
      events.on("tool_execution_start", (e) => this.tool(e.toolCallId, e.toolName, e.input).start(e.input)),
      events.on("tool_execution_update", (e) => this.tool(e.toolCallId, e.toolName).progress(e.partial)),
      events.on("tool_execution_end", (e) =>
        this.tool(e.toolCallId, e.toolName).finish(e.result.content, e.result.details, e.isError),
      ),
      events.on("notice", (n) => this.add(noticeView(n.level, n.message))),
      events.on("retry_start", (r) =>
        this.add(noticeView("warning", `${r.provider}: ${r.reason}; retry ${r.attempt}/${r.maxAttempts}`)),
      ),
      events.on("compaction_end", (c) =>
        this.add(
          c.errorMessage
            ? noticeView("error", `Compaction failed: ${c.errorMessage}`)
            : noticeView("info", `Compacted the history: ${c.tokensBefore} → ${c.tokensAfter} tokens.`),
        ),
      ),
      events.on("session_entry", ({ entry }) => this.add(entryView(this.runtime, entry, this.state))),
      events.on("history_replaced", ({ reason, messages, entries }) => {
        if (reason !== "compaction") this.redraw(messages, entries);
      }),
    ];
    const notify = () => changed();
    const offAny = events.onAny(notify);
    return () => [...offs, offAny].forEach((off) => off());
  }

  /** Shows a notice that is the UI's own (not an event). */
  notice(level: "info" | "warning" | "error", text: string): void {
    this.add(noticeView(level, text));
  }

  add(component: Component): void {
    this.container.addChild(component);
  }

  /** Draws a whole history: a resumed session, a /tree jump. */
  redraw(messages: readonly Message[], entries: readonly PluginEntry[]): void {
    this.container.clear();
    this.tools.clear();
    this.current = undefined;
    for (const message of messages) {
      if (message.role === "assistant") this.assistant(message);
      this.message(message);
    }
    for (const entry of entries) this.add(entryView(this.runtime, entry, this.state));
  }

  private assistant(message: AssistantMessage): void {
    if (!this.current) {
      this.current = new AssistantView(this.state);
      this.add(this.current);
    }
    this.current.update(message);
  }

  private message(message: Message): void {
    if (message.role === "user") {
      const text = userText(message);
      this.add(userView(text, message.kind !== undefined));
      if (message.kind === undefined) this.onUserMessage(text);
    } else if (message.role === "assistant") {
      this.current?.update(message);
      this.current = undefined;
      for (const block of message.content)
        if (block.type === "toolCall") this.tool(block.id, block.name, parseArguments(block.arguments));
    } else {
      const view = this.tool(message.toolCallId, message.toolName);
      if (!view.finished) view.finish(message.content, message.details, message.isError);
    }
  }

  private tool(id: string, name: string, input?: unknown): ToolView {
    let view = this.tools.get(id);
    if (!view) {
      view = new ToolView(this.runtime, this.state, name, input);
      this.tools.set(id, view);
      this.add(view);
    }
    return view;
  }
}
