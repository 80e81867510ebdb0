/**
 * A project's Claude Code settings (`.claude/settings.json`, then `.claude/settings.local.json`) as keel
 * settings, so they join the project layer behind the same trust as `.keel/settings.json`: permission rules in
 * Claude Code's syntax (its tool names and `:*` read as they are; a path rule starting with one `/` is relative
 * to the project, as Claude Code reads it, and becomes `./…`), `permissions.defaultMode`, `hooks` (keel's own
 * hooks setting has Claude Code's format; each group remembers its file for messages), `env`, and which of
 * `.mcp.json`'s servers to start. Whatever else the file sets is said once, naming the file.
 */
type SettingsObject = Record<string, unknown>;

const isPlainObject = (value: unknown): value is SettingsObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const CLAUDE_SETTINGS_FILES = [".claude/settings.json", ".claude/settings.local.json"] as const;

/** Claude Code's modes → keel's `permissions.mode`; a mode missing here is not honoured. */
const MODES: Readonly<Record<string, string>> = {
  default: "ask",
  plan: "ask",
  acceptEdits: "auto",
  bypassPermissions: "full",
};
/** Claude Code's tools whose rules keel cannot honour: keel has no such tool. */
const NO_SUCH_TOOL = /^(WebFetch|WebSearch|TodoWrite|NotebookEdit|NotebookRead|AskUserQuestion|Skill|SlashCommand)\b/;
const PATH_TOOLS = /^(Read|Edit|Write|MultiEdit|Glob|Grep|LS|read|edit|write|find|grep|ls)\(\/(?!\/)/;
/** Read or mapped below; `$schema` only names the file's schema. */
const HONOURED = new Set(["permissions", "hooks", "env", "$schema"]);
const MCP_KEYS = ["enabledMcpjsonServers", "disabledMcpjsonServers", "enableAllProjectMcpServers"];

/** Which of the project's `.mcp.json` servers start (Claude Code's per-server approvals). */
export interface McpChoice {
  enabled?: string[];
  disabled: string[];
}

export interface ClaudeSettings {
  settings: SettingsObject;
  mcp: McpChoice;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

function rules(value: unknown, list: string, skipped: string[]): string[] {
  return strings(value).flatMap((rule) => {
    if (NO_SUCH_TOOL.test(rule)) {
      skipped.push(`permissions.${list} ${rule} (keel has no such tool)`);
      return [];
    }
    return [rule.replace(PATH_TOOLS, (start) => `${start.slice(0, -1)}./`)];
  });
}

function groupsFrom(hooks: SettingsObject, file: string): SettingsObject {
  return Object.fromEntries(
    Object.entries(hooks).map(([event, groups]) => [
      event,
      Array.isArray(groups) ? groups.map((g) => (isPlainObject(g) ? { ...g, source: file } : g)) : groups,
    ]),
  );
}

/** `file` names the file in each hook group (`source`), for the hooks plugin's messages. */
function mapOne(raw: SettingsObject, file: string, skipped: string[]): ClaudeSettings {
  const settings: SettingsObject = {};
  const mcp: McpChoice = { disabled: strings(raw.disabledMcpjsonServers) };
  if (Array.isArray(raw.enabledMcpjsonServers) && raw.enableAllProjectMcpServers !== true)
    mcp.enabled = strings(raw.enabledMcpjsonServers);
  const permissions = isPlainObject(raw.permissions) ? raw.permissions : {};
  const mapped: SettingsObject = {};
  for (const list of ["allow", "ask", "deny"] as const)
    if (permissions[list] !== undefined) mapped[list] = rules(permissions[list], list, skipped);
  const mode = permissions.defaultMode;
  if (typeof mode === "string" && MODES[mode]) mapped.mode = MODES[mode];
  else if (mode !== undefined) skipped.push(`permissions.defaultMode ${JSON.stringify(mode)}`);
  for (const key of Object.keys(permissions))
    if (!["allow", "ask", "deny", "defaultMode"].includes(key)) skipped.push(`permissions.${key}`);
  if (Object.keys(mapped).length > 0) settings.permissions = mapped;
  if (isPlainObject(raw.hooks)) settings.hooks = groupsFrom(raw.hooks, file);
  else if (raw.hooks !== undefined) settings.hooks = raw.hooks;
  if (raw.disableAllHooks === true) settings.hooks = {};
  if (isPlainObject(raw.env))
    settings.env = Object.fromEntries(Object.entries(raw.env).map(([key, value]) => [key, String(value)]));
  for (const key of Object.keys(raw))
    if (!HONOURED.has(key) && !MCP_KEYS.includes(key) && key !== "disableAllHooks") skipped.push(key);
  return { settings, mcp };
}

/**
 * One Claude Code settings file mapped onto keel's keys; `warnings` gets one line, naming the file, when it
 * sets what keel does not honour.
 */
export function mapClaudeSettings(raw: SettingsObject, file: string, warnings: string[]): ClaudeSettings {
  const skipped: string[] = [];
  const mapped = mapOne(raw, file, skipped);
  if (skipped.length > 0) warnings.push(`${file}: keel does not honour ${skipped.join(", ")}; the rest applies.`);
  return mapped;
}
