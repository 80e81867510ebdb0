/**
 * Agent definitions, keel's and Claude Code's alike (`@keel/formats/agents`): Markdown files (subfolders too)
 * whose front matter says `name` (default: the file's), `description`, `tools` (keel's names or Claude Code's,
 * MCP tools, patterns such as `Bash(git *)`; absent: every tool of the session but `task`),
 * `disallowedTools`, `model` (`provider/model`, an alias such as `sonnet`, absent or `inherit`: the session's),
 * `permissionMode` and `maxTurns`; the body is the agent's system prompt. From `$KEEL_HOME/agents`, then the
 * project's `.keel/agents` and `.claude/agents` when the folder is trusted (a definition picks tools and a
 * model, so it is configuration, not just text); a later definition of a name replaces an earlier one. Plugins'
 * agents folders (`keel.content.agents`) come first, each agent named `<plugin>:<name>`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PluginInfo } from "@keel/extensions-api";
import type { AgentFile, PermissionMode } from "@keel/formats/agents";
import type { ToolSpec } from "@keel/formats/tools";

export interface AgentDefinition {
  name: string;
  description: string;
  /** undefined: every tool of the session but `task`. */
  tools?: readonly ToolSpec[];
  disallowedTools: readonly ToolSpec[];
  /** As written: `provider/model`, an alias, a model id; undefined for the session's. */
  model?: string;
  permissionMode: PermissionMode;
  maxTurns?: number;
  systemPrompt: string;
  /** The file it was read from; undefined for the built-in one. */
  path?: string;
}

/** The agent a task without `agent` runs. */
export const GENERAL: AgentDefinition = {
  name: "general",
  description: "any job, with every tool",
  disallowedTools: [],
  permissionMode: "default",
  systemPrompt:
    "You are a subagent: do the task you are given with your tools, then answer with what it asks " +
    "for. Your final answer is all the caller sees, so put everything it needs in it.",
};

/** The project folders agent definitions are read from once it is trusted, in order. */
export const PROJECT_AGENT_FOLDERS = [".keel/agents", ".claude/agents"] as const;

const definition = (file: AgentFile): AgentDefinition => file;

/** The built-in agent, then the user's, then (trusted only) the project's; a later one of a name replaces. */
export async function discoverAgents(
  keelHome: string,
  cwd: string,
  projectTrusted: boolean,
  problems: string[],
  plugins: readonly PluginInfo[] = [],
): Promise<Map<string, AgentDefinition>> {
  const agents = new Map([[GENERAL.name, GENERAL]]);
  const fromPlugins = plugins.flatMap((p) =>
    p.state === "active" || p.state === "lazy" ? (p.content?.agents ?? []).map((dir) => ({ dir, prefix: p.name })) : [],
  );
  const folders = [
    ...fromPlugins,
    { dir: join(keelHome, "agents") },
    ...(projectTrusted ? PROJECT_AGENT_FOLDERS.map((folder) => ({ dir: join(cwd, folder) })) : []),
  ].filter(({ dir }) => existsSync(dir));
  // The reader loads only when there is a folder to read (most sessions have none).
  if (folders.length === 0) return agents;
  const [{ Notes, noteText }, { readAgents }] = await Promise.all([
    import("@keel/formats"),
    import("@keel/formats/agents"),
  ]);
  const notes = new Notes();
  // A plugin's agents are namespaced by it (`plugin:agent`), as in Claude Code.
  for (const { dir, prefix } of folders as { dir: string; prefix?: string }[])
    for (const agent of await readAgents(dir, notes, prefix)) agents.set(agent.name, definition(agent));
  problems.push(...notes.list.map(noteText));
  return agents;
}
