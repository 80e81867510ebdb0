/**
 * Events: facts about a run, for observers (UIs, loggers, session writers, notifiers). Fire-and-forget: a
 * handler cannot change anything, and one that throws never stops the others (its error becomes a
 * `plugin_error` event naming the plugin).
 */
import type { RunEnd, SessionInfo } from "./hooks.js";
import type { AssistantMessage, Message, ToolResultMessage } from "./messages.js";
import type { RetryInfo, StreamDelta } from "./provider.js";
import type { HistoryReplaceReason, PluginEntry } from "./session.js";
import type { ToolResult } from "./tool.js";

export interface PluginRef {
  name: string;
  version: string;
}

/** The event catalog, as types: name → payload. Each event is described once, in `EVENTS` below. */
export interface EventPayloads {
  agent_start: { runId: string };
  agent_end: RunEnd;
  turn_start: { turn: number };
  turn_end: { turn: number; message: AssistantMessage; toolResults: ToolResultMessage[] };
  message_start: { message: Message };
  message_update: { message: AssistantMessage; delta: StreamDelta };
  message_end: { message: Message };
  tool_execution_start: { toolCallId: string; toolName: string; input: unknown };
  tool_execution_update: { toolCallId: string; toolName: string; partial: ToolResult };
  tool_execution_end: { toolCallId: string; toolName: string; result: ToolResultMessage; isError: boolean };
  retry_start: RetryInfo & { provider: string; model: string };
  compaction_start: { reason: string; tokensBefore: number };
  compaction_end: {
    reason: string;
    tokensBefore: number;
    tokensAfter: number;
    summary?: string;
    firstKeptIndex?: number;
    details?: unknown;
    errorMessage?: string;
  };
  history_replaced: { reason: HistoryReplaceReason; messages: readonly Message[]; entries: readonly PluginEntry[] };
  session_entry: { entry: PluginEntry };
  guard_blocked: { hook: string; by: string; reason: string; subject: unknown; agent?: string };
  plugin_activated: { plugin: PluginRef; ms: number };
  plugin_error: { plugin: PluginRef; phase: string; message: string };
  plugin_warning: { plugin?: PluginRef; message: string };
  session_start: SessionInfo;
  session_end: SessionInfo;
  notice: { level: "info" | "warning" | "error"; message: string };
  permission_decision: {
    toolCallId: string;
    toolName: string;
    decision: "allow" | "deny";
    by: "rule" | "mode" | "session" | "user" | "yes" | "no_ui" | "error";
    rule?: string;
    mode: string;
    reason: string;
    asked: boolean;
  };
  permission_mode: {
    /** The mode now in force (the permissions plugin's: `ask`, `auto`, `full`). */
    mode: string;
  };
  permission_grant: {
    /** Allow rules in the `permissions` setting's syntax (Claude Code's names and patterns read too). */
    rules: string[];
    /** Who grants them, named in each decision they make (a command's file). */
    origin: string;
  };
  session_mcp_servers: {
    /** Server name → entry, in the `mcpServers` setting's format (`{ command, args, env }` | `{ url, headers }`). */
    servers: Record<string, unknown>;
    /** Who passed them, for messages: `acp` for an editor's `session/new`. */
    from: string;
  };
  plan: { entries: readonly PlanEntry[] };
}

/** One step of the agent's plan, in the shape editors show (ACP's plan entries). */
export interface PlanEntry {
  content: string;
  status: "pending" | "in_progress" | "completed";
  priority?: "high" | "medium" | "low";
}

/** Events a plugin may publish with `api.publish`; every other event is the kernel's alone. */
export const PLUGIN_EVENTS = [
  "permission_decision",
  "permission_mode",
  "permission_grant",
  "session_mcp_servers",
  "plan",
] as const satisfies readonly EventName[];
export type PluginEventName = (typeof PLUGIN_EVENTS)[number];

export type EventName = keyof EventPayloads;
export type EventHandler<K extends EventName> = (payload: EventPayloads[K]) => void | Promise<void>;

/** What `api.events` offers a plugin. */
export interface EventSubscriber {
  /** Subscribes; returns the unsubscribe function. Also removed when the plugin is disposed. */
  on<K extends EventName>(event: K, handler: EventHandler<K>): () => void;
  /** Every event, with its name (loggers, JSON modes). */
  onAny(handler: <K extends EventName>(event: K, payload: EventPayloads[K]) => void | Promise<void>): () => void;
}

/** The event catalog with THE documentation of each event; `docs/hooks-and-events.md` is generated from it. */
export const EVENTS: { [K in EventName]: string } = {
  agent_start: "A run begins (a prompt was accepted).",
  agent_end: "A run ended; `reason` says why, `messages` are the messages it added (just before the `agent_end` hook).",
  turn_start: "One request to the model begins.",
  turn_end: "The model replied and its tool calls (if any) have results.",
  message_start: "A message (user, assistant, tool result) begins.",
  message_update:
    "A streamed delta of the assistant message (text, thinking, tool-call arguments); `message` is " +
    "the partial message so far.",
  message_end: "A message is complete and entered the history.",
  tool_execution_start: "A tool call starts running (after validation and the tool_call guards).",
  tool_execution_update: "A running tool reported progress.",
  tool_execution_end: "A tool call finished; `result` is what the model will see.",
  retry_start: "A provider will retry a failed request after `delayMs`.",
  compaction_start: "Compaction begins.",
  compaction_end:
    "Compaction ended; tokens before and after. On success `summary` replaced the messages before " +
    "`firstKeptIndex`, an index into the messages the strategy was given (the model's view: failed " +
    "replies left out); the history is now `[summary, ...kept]`. The full history stays wherever " +
    "the session store keeps it.",
  history_replaced:
    "The history was replaced: a resume, a `/tree` jump, a `/fork`, a compaction (`reason`). " +
    "`messages` is the new history and `entries` the plugin entries of the new active branch, " +
    "oldest first; plugins with session state rebuild it here (`api.session.entries()` gives the " +
    "calling plugin's own).",
  session_entry:
    "A plugin appended an entry to the session (`api.session.append`); the session store keeps it " +
    "on the active branch.",
  guard_blocked:
    "A guard hook blocked a tool call, a user message or a compaction; `by` names the guard, " +
    "`agent` the subagent whose call it was (audit logs, UIs, tests).",
  plugin_activated: "A plugin's activate() finished.",
  plugin_error: "A plugin failed: loading, activating, or in a hook or event handler.",
  plugin_warning:
    "Something a user should know that is not an error (a name clash resolved by alias, a degraded plugin).",
  session_start: "A session began (after the `session_start` hook); for observers.",
  session_end: "A session ended (after the `session_end` hook); for observers.",
  notice: "A message for the user from a command or plugin (`runtime.notify`).",
  permission_decision:
    "A permission policy allowed or denied a tool call. `by` says what decided: a `rule` (named in " +
    "`rule`), the `mode`, a grant the user gave this `session`, the `user` when asked (`asked`), " +
    "`yes` (--yes), `no_ui` (an ask nobody could answer, so a deny) or `error` (the check itself " +
    "failed, so a deny); `reason` says why. Published by a plugin (`api.publish`).",
  permission_mode:
    "The permission mode changed for the rest of the session (`/permissions full`); hooks that report the mode " +
    "(hooks-command's `permission_mode`) follow it. Published by a plugin (`api.publish`).",
  permission_grant:
    "A plugin grants allow rules until the run going ends, or the next one when none is (a slash command's " +
    "`allowed-tools`). The permission policy applies them as it applies the user's allow rules: below its " +
    "deny and ask rules and protected files. Published by a plugin (`api.publish`).",
  session_mcp_servers:
    "MCP servers a client passed for this session only (an ACP editor's `session/new` or `session/load`), " +
    "not written to any settings file; an MCP plugin connects them before the next prompt runs. Published " +
    "by a UI plugin (`api.publish`).",
  plan:
    "The agent's plan changed: the whole list of steps, each pending, in progress or completed (a todo or " +
    "plan tool publishes it after every change). Surfaces show it: an ACP editor gets a `plan` update. " +
    "Published by a plugin (`api.publish`).",
};
