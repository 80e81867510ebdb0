/**
 * Claude Code's tool names and keel's: the one catalog every reader of Claude Code's files maps through
 * (subagents' `tools`, commands' and skills' `allowed-tools`, permission rules in `.claude/settings.json`).
 * A tool keel has no counterpart of maps to undefined, so a caller can say which names it could not honour.
 */

/** Claude Code's built-in tools → the keel tool that does the same; undefined where keel has none. */
export const CLAUDE_CODE_TOOLS: Readonly<Record<string, string | undefined>> = {
  Bash: "bash",
  BashOutput: "process",
  KillShell: "process",
  KillBash: "process",
  Read: "read",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  Glob: "find",
  Grep: "grep",
  LS: "ls",
  Task: "task",
  Agent: "task",
  WebFetch: undefined,
  WebSearch: undefined,
  TodoWrite: undefined,
  TodoRead: undefined,
  NotebookEdit: undefined,
  NotebookRead: undefined,
  AskUserQuestion: undefined,
  Skill: undefined,
  SlashCommand: undefined,
  ExitPlanMode: undefined,
};

/** One entry of a tools list or a rule: `Read`, `Bash(git add:*)`, `mcp__github__create_issue`, `read`. */
export interface ToolSpec {
  /** As written. */
  written: string;
  /** The tool part as written (`Bash`). */
  name: string;
  /** The keel tool it means; undefined when keel has none. */
  keel: string | undefined;
  /** The part in parentheses (`git add:*`), undefined for the tool alone. */
  pattern: string | undefined;
}

const SPEC = /^([A-Za-z0-9_*.-]+)(?:\((.*)\))?$/s;

/**
 * Reads one entry. A Claude Code name maps through the catalog; an MCP tool (`mcp__server__tool`) keeps its
 * name, which is keel's name for it too; any other name is taken as a keel tool's (`read`, a plugin's tool).
 */
export function parseToolSpec(written: string): ToolSpec {
  const match = SPEC.exec(written.trim());
  if (!match) return { written, name: written, keel: undefined, pattern: undefined };
  const name = match[1]!;
  const pattern = match[2]?.trim() || undefined;
  const keel = Object.hasOwn(CLAUDE_CODE_TOOLS, name) ? CLAUDE_CODE_TOOLS[name] : name;
  return { written, name, keel, pattern };
}

/** The keel tool a Claude Code name stands for (itself when it is not one of Claude Code's). */
export function keelToolName(name: string): string | undefined {
  return Object.hasOwn(CLAUDE_CODE_TOOLS, name) ? CLAUDE_CODE_TOOLS[name] : name;
}
