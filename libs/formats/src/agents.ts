/**
 * Subagent definitions as Claude Code writes them: Markdown files (in subfolders too) whose front matter says
 * `name` (default: the file's), `description`, `tools` and `disallowedTools` (Claude Code's names, MCP tools,
 * patterns such as `Bash(git *)`), `model` (`inherit`, an alias such as `sonnet`, or a model id),
 * `permissionMode` and `maxTurns`; the text after it is the agent's system prompt. The caller maps the tools
 * onto the session's and resolves the model (models.ts); fields keel does not act on are noted per file.
 */
import { readFileSync } from "node:fs";
import { parseFrontMatter } from "@keel/front-matter";
import { count, firstParagraph, names, text, type Fields } from "./fields.ts";
import { markdownFiles } from "./markdown-files.ts";
import { Notes } from "./notes.ts";
import { parseToolSpec, type ToolSpec } from "./tools.ts";

/** Claude Code's permission modes, and what each means for a subagent in keel. */
export const PERMISSION_MODES = {
  default: "the session's permission policy applies",
  acceptEdits: "not honoured: the session's permission policy decides edits (a file cannot widen it)",
  plan: "the agent may use only read-only tools",
  bypassPermissions: "not honoured: a subagent never gets more than the session's permission policy allows",
  dontAsk: "not honoured: the session's permission policy decides what is asked",
} as const;
export type PermissionMode = keyof typeof PERMISSION_MODES;

export interface AgentFile {
  name: string;
  description: string;
  /** undefined: every tool of the session (Claude Code's default). */
  tools?: ToolSpec[];
  disallowedTools: ToolSpec[];
  /** As written; undefined or `inherit`: the session's. */
  model?: string;
  permissionMode: PermissionMode;
  maxTurns?: number;
  systemPrompt: string;
  path: string;
}

const NAME = /^[A-Za-z0-9][\w.:-]{0,63}$/;

/** Claude Code fields keel reads but does not act on, with why. Display-only fields (`color`) change nothing. */
const NOT_HONOURED: Readonly<Record<string, string>> = {
  skills: "`skills` preloading (the agent reads skills like any other)",
  mcpServers: "`mcpServers` scoped to the agent (it uses the session's servers)",
  hooks: "`hooks` scoped to the agent",
  memory: "`memory`",
  background: "`background`",
  isolation: "`isolation`",
  effort: "`effort` (the session's thinking level applies)",
  initialPrompt: "`initialPrompt`",
};

export async function readAgentFile(
  path: string,
  defaultName: string,
  notes: Notes,
  read = (file: string) => readFileSync(file, "utf8"),
): Promise<AgentFile | undefined> {
  let fields: Fields;
  let body: string;
  try {
    ({ data: fields, body } = await parseFrontMatter(read(path)));
  } catch (error) {
    return notes.refuse(path, (error as Error).message.split("\n")[0]!);
  }
  const name = text(fields, "name") || defaultName;
  if (!NAME.test(name)) return notes.refuse(path, `its name "${name}" must be letters, digits, _, ., : and -`);
  const description = text(fields, "description");
  if (description === false) return notes.refuse(path, `front matter key "description" must be text`);
  const about = description || firstParagraph(body);
  if (!about) return notes.refuse(path, "it has no description, so the model could not tell when to use it");
  const model = text(fields, "model");
  if (model === false) return notes.refuse(path, `front matter key "model" must be text`);
  const unhonoured = Object.keys(NOT_HONOURED)
    .filter((key) => fields[key] !== undefined)
    .map((key) => NOT_HONOURED[key]!);
  const mode = text(fields, "permissionMode") || "default";
  const permissionMode = (Object.hasOwn(PERMISSION_MODES, mode) ? mode : "default") as PermissionMode;
  if (!Object.hasOwn(PERMISSION_MODES, mode)) unhonoured.push(`permissionMode "${mode}" (not a mode Claude Code has)`);
  else if (PERMISSION_MODES[permissionMode].startsWith("not honoured"))
    unhonoured.push(`permissionMode "${mode}" (${PERMISSION_MODES[permissionMode].slice("not honoured: ".length)})`);
  if (fields.maxTurns !== undefined && count(fields, "maxTurns") === undefined)
    unhonoured.push("`maxTurns` (not a whole number above 0)");
  notes.unhonoured(path, unhonoured);
  const tools = names(fields, "tools");
  const maxTurns = count(fields, "maxTurns");
  return {
    name,
    description: about,
    ...(tools && { tools: tools.map(parseToolSpec) }),
    disallowedTools: (names(fields, "disallowedTools") ?? []).map(parseToolSpec),
    ...(model && model !== "inherit" && { model }),
    permissionMode,
    ...(maxTurns && { maxTurns }),
    systemPrompt: body.trim(),
    path,
  };
}

/** Every agent of a folder and its subfolders; a file's default name is its own (`git/expert.md` → `expert`). */
export async function readAgents(dir: string, notes: Notes, prefix?: string): Promise<AgentFile[]> {
  const out: AgentFile[] = [];
  for (const file of markdownFiles(dir)) {
    const own = file.stem.split("/").at(-1)!;
    const agent = await readAgentFile(file.path, own, notes);
    if (agent) out.push(prefix ? { ...agent, name: `${prefix}:${agent.name}` } : agent);
  }
  return out;
}
