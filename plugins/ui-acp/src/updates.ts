/**
 * What the editor sees of a session, as `session/update` notifications: streamed text and thinking as message
 * and thought chunks, each tool call from the moment the model asked for it (pending, while the permission
 * guard decides) through running to its result, with kind, title, locations and diffs; and the whole history
 * again when a session is loaded. A tool that renders its own call line is titled by it. A plugin's `plan` event
 * (a todo tool's list) is the editor's plan.
 */
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import {
  textOf,
  toolCallsOf,
  type EventPayloads,
  type Message,
  type Runtime,
  type ToolCall,
  type ToolResult,
  type ToolResultMessage,
  type UiContributions,
} from "@keel/extensions-api";
import { renderedCall } from "@keel/extensions-api/render";
import { toolDiffs, toolKind, toolLocations, toolTitle } from "./tool-display.ts";

export type Send = (update: SessionUpdate) => void;

const text = (value: string) => ({ type: "text" as const, text: value });
/** A call's arguments as an object; a call the model sent malformed arguments for shows as having none. */
function inputOf(call: ToolCall): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.arguments);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function resultText(result: ToolResult | ToolResultMessage): string {
  const content = result.content;
  if (typeof content === "string") return content;
  return content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
}

/** The tool's own call line where it renders one (bash: `$ command`), else a title made here. */
function title(ui: UiContributions, call: ToolCall): string {
  return renderedCall(ui, call.name, inputOf(call))?.[0] ?? toolTitle(call.name, inputOf(call));
}

function announce(ui: UiContributions, cwd: string, call: ToolCall): SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: call.id,
    title: title(ui, call),
    kind: toolKind(call.name),
    status: "pending",
    locations: toolLocations(cwd, inputOf(call)),
    rawInput: inputOf(call),
  };
}

function finish(cwd: string, call: ToolCall | undefined, result: ToolResultMessage): SessionUpdate {
  const content: ToolCallContent[] = [
    ...(call && !result.isError ? toolDiffs(cwd, call.name, inputOf(call)) : []),
    { type: "content", content: text(resultText(result)) },
  ];
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: result.toolCallId,
    status: result.isError ? "failed" : "completed",
    content,
  };
}

/**
 * Relays a live session's events while a prompt runs. `pending` lists the calls the model asked for that have
 * not started: the first of them is the one the permission guard is deciding (calls are guarded in order).
 */
export class LiveRelay {
  private readonly calls = new Map<string, ToolCall>();
  private readonly ended = new Set<string>();
  readonly pending: string[] = [];

  constructor(
    private readonly runtime: Runtime,
    private readonly send: Send,
  ) {}

  /** Subscribes; returns the unsubscribe function. */
  attach(): () => void {
    const on = this.runtime.events;
    const offs = [
      on.on("message_update", (e) => this.delta(e)),
      on.on("message_end", ({ message }) => this.announceCalls(message)),
      on.on("tool_execution_start", (e) => this.started(e.toolCallId)),
      on.on("tool_execution_update", (e) => this.progress(e)),
      on.on("tool_execution_end", (e) => this.ended_(e.result)),
      // A call refused before it ran (a guard, the permission prompt) has a result but never started.
      on.on("turn_end", ({ toolResults }) => toolResults.forEach((r) => this.ended_(r))),
      on.on("notice", ({ message }) => this.send({ sessionUpdate: "agent_message_chunk", content: text(message) })),
      // ACP's plan is the whole list each time, as the event is; an entry must say its priority.
      on.on("plan", ({ entries }) =>
        this.send({
          sessionUpdate: "plan",
          entries: entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority ?? "medium" })),
        }),
      ),
    ];
    return () => offs.forEach((off) => off());
  }

  /** The call the permission guard is deciding now, if any. */
  get deciding(): ToolCall | undefined {
    const id = this.pending[0];
    return id === undefined ? undefined : this.calls.get(id);
  }

  private delta({ delta }: EventPayloads["message_update"]): void {
    if (delta.type === "text_delta") this.send({ sessionUpdate: "agent_message_chunk", content: text(delta.delta) });
    else if (delta.type === "thinking_delta")
      this.send({ sessionUpdate: "agent_thought_chunk", content: text(delta.delta) });
  }

  private announceCalls(message: Message): void {
    if (message.role !== "assistant") return;
    for (const call of toolCallsOf(message)) {
      this.calls.set(call.id, call);
      this.pending.push(call.id);
      this.send(announce(this.runtime.ui(), this.runtime.cwd, call));
    }
  }

  private started(id: string): void {
    this.unpend(id);
    this.send({ sessionUpdate: "tool_call_update", toolCallId: id, status: "in_progress" });
  }

  private progress({ toolCallId, partial }: EventPayloads["tool_execution_update"]): void {
    this.send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      content: [{ type: "content", content: text(resultText(partial)) }],
    });
  }

  private ended_(result: ToolResultMessage): void {
    if (this.ended.has(result.toolCallId)) return;
    this.ended.add(result.toolCallId);
    this.unpend(result.toolCallId);
    this.send(finish(this.runtime.cwd, this.calls.get(result.toolCallId), result));
  }

  private unpend(id: string): void {
    const at = this.pending.indexOf(id);
    if (at >= 0) this.pending.splice(at, 1);
  }
}

/** The history as the updates that would have shown it, for `session/load`. */
export function replay(runtime: Runtime, send: Send): void {
  const { cwd, messages } = runtime;
  const calls = new Map<string, ToolCall>();
  for (const message of messages) {
    if (message.role === "user") {
      if (message.kind === undefined) send({ sessionUpdate: "user_message_chunk", content: text(textOf(message)) });
    } else if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "thinking") send({ sessionUpdate: "agent_thought_chunk", content: text(part.thinking) });
        else if (part.type === "text") send({ sessionUpdate: "agent_message_chunk", content: text(part.text) });
        else {
          calls.set(part.id, part);
          send(announce(runtime.ui(), cwd, part));
        }
      }
    } else send(finish(cwd, calls.get(message.toolCallId), message));
  }
}
