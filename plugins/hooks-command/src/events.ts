/**
 * The Claude Code hook events keel runs, and the keel hook each one sits on. The one catalog: the config
 * parser, the docs and the plugin's taps all derive from it.
 */
export const EVENTS = {
  PreToolUse: { keelHook: "tool_call", matches: "tool name", blocks: true },
  PostToolUse: { keelHook: "tool_result", matches: "tool name", blocks: true },
  UserPromptSubmit: { keelHook: "input", matches: undefined, blocks: true },
  Stop: { keelHook: "stop", matches: undefined, blocks: true },
  SessionStart: { keelHook: "session_start", matches: "source (startup, resume)", blocks: false },
  SessionEnd: { keelHook: "session_end", matches: undefined, blocks: false },
  Notification: { keelHook: "ui_request", matches: undefined, blocks: false },
  PreCompact: { keelHook: "compact_before", matches: "trigger (manual, auto)", blocks: true },
} as const;

export type HookEventName = keyof typeof EVENTS;

/**
 * Claude Code's tool names for keel's tools: a matcher written for Claude Code (`Bash`, `Edit|Write`) matches
 * the keel tool, and the script sees the Claude Code name in `tool_name`.
 */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  bash: ["Bash"],
  edit: ["Edit", "MultiEdit"],
  write: ["Write"],
  read: ["Read"],
  find: ["Glob"],
  grep: ["Grep"],
  ls: ["LS", "Grep"],
};

/** The names a matcher is tried against for a keel tool: keel's own, then Claude Code's. */
export function toolNamesOf(keelName: string): readonly string[] {
  return [keelName, ...(CLAUDE_TOOL_NAMES[keelName] ?? [])];
}

/** The `tool_name` a script receives: Claude Code's name when keel's tool has one. */
export function wireToolName(keelName: string): string {
  return CLAUDE_TOOL_NAMES[keelName]?.[0] ?? keelName;
}
