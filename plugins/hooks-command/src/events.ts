/**
 * The Claude Code hook events keel runs, and the keel hook each one sits on. The one catalog: the config
 * parser, the docs and the plugin's taps all derive from it.
 */
export const EVENTS = {
  PreToolUse: { keelHook: "tool_call", matches: "tool name", blocks: true },
  PostToolUse: { keelHook: "tool_result", matches: "tool name", blocks: true },
  UserPromptSubmit: { keelHook: "input", matches: undefined, blocks: true },
  Stop: { keelHook: "stop", matches: undefined, blocks: true },
  /** The same keel hook, when a subagent's run (the `task` tool's) is about to end. */
  SubagentStop: { keelHook: "stop", matches: undefined, blocks: true },
  SessionStart: { keelHook: "session_start", matches: "source (startup, resume)", blocks: false },
  SessionEnd: { keelHook: "session_end", matches: "reason (prompt_input_exit, other)", blocks: false },
  Notification: {
    keelHook: "ui_request",
    matches: "notification_type (permission_prompt, elicitation_dialog)",
    blocks: false,
  },
  PreCompact: { keelHook: "compact_before", matches: "trigger (manual, auto)", blocks: true },
} as const;

export type HookEventName = keyof typeof EVENTS;
