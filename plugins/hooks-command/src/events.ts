/**
 * Claude Code's hook events: the ones keel runs, each on the keel hook or event of the same moment, and the
 * ones it does not, each with why. The one catalog: the config parser, the bridge's taps, the README and
 * docs/formats.md derive from it.
 */
export const EVENTS = {
  PreToolUse: { on: "tool_call", matches: "tool name", blocks: true },
  /** A tool that ran and succeeded. Not for a call a guard blocked, nor one that never ran. */
  PostToolUse: { on: "tool_result", matches: "tool name", blocks: true },
  /** A tool that ran and failed. */
  PostToolUseFailure: { on: "tool_result", matches: "tool name", blocks: false },
  /** The user's prompt, steering and follow-ups of the session's own agent. */
  UserPromptSubmit: { on: "input", matches: undefined, blocks: true },
  Stop: { on: "stop", matches: undefined, blocks: true },
  /** The first prompt of a subagent's run (the `input` guard with `ctx.agent`); may add context. */
  SubagentStart: { on: "input", matches: "agent type", blocks: false },
  /** The same keel hook as Stop, when a subagent's run (the `task` tool's) is about to end. */
  SubagentStop: { on: "stop", matches: undefined, blocks: true },
  /** A run that ended with an error (the `agent_end` hook, reason `error`). */
  StopFailure: { on: "agent_end", matches: undefined, blocks: false },
  SessionStart: { on: "session_start", matches: "source (startup, resume)", blocks: false },
  SessionEnd: { on: "session_end", matches: "reason (prompt_input_exit, other)", blocks: false },
  Notification: {
    on: "ui_request",
    matches: "notification_type (permission_prompt, elicitation_dialog)",
    blocks: false,
  },
  PreCompact: { on: "compact_before", matches: "trigger (manual, auto)", blocks: true },
  /** After compaction (the `compaction_end` event). */
  PostCompact: { on: "compaction_end", matches: "trigger (manual, auto)", blocks: false },
} as const;

export type HookEventName = keyof typeof EVENTS;

/** Claude Code's events keel does not run, and why; a configuration naming one is told so, naming its file. */
export const NOT_RUN: Readonly<Record<string, string>> = {
  PermissionRequest: "keel's permission prompts are its permission policy's; decide in PreToolUse instead",
  UserPromptExpansion: "keel expands slash commands without a hook",
  Setup: "keel has no setup step",
  InstructionsLoaded: "keel reads instruction files once, without a hook",
  ConfigChange: "keel reads its settings once per start",
  CwdChanged: "a keel session keeps its folder",
  FileChanged: "keel does not watch files",
  WorktreeCreate: "keel has no worktree commands",
  WorktreeRemove: "keel has no worktree commands",
  TeammateIdle: "keel has no agent teams",
  TaskCompleted: "keel has no agent teams",
  TaskCreated: "keel has no agent teams",
  Elicitation: "MCP questions are asked through keel's UI",
  ElicitationResult: "MCP questions are asked through keel's UI",
};
