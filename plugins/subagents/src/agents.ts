/**
 * Agent definitions: Markdown files whose front matter says `name`, `description`, `tools` (names, or a
 * comma-separated line; absent: every tool of the session but `task`) and `model` (`provider/model`, absent or
 * `inherit`: the session's), and whose body is the agent's system prompt. From `$KEEL_HOME/agents`, then the
 * project's `.keel/agents` when the folder is trusted (a definition picks tools and a model, so it is
 * configuration, not just text); a project definition replaces a user one of the same name.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { z } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";
import { readHeader } from "@keel/front-matter";

export interface AgentDefinition {
  name: string;
  description: string;
  /** undefined: every tool of the session but `task`. */
  tools?: string[];
  model?: { provider: string; model: string };
  systemPrompt: string;
  /** The file it was read from; undefined for the built-in one. */
  path?: string;
}

/** The agent a task without `agent` runs. */
export const GENERAL: AgentDefinition = {
  name: "general",
  description: "any job, with every tool",
  systemPrompt:
    "You are a subagent: do the task you are given with your tools, then answer with what it asks " +
    "for. Your final answer is all the caller sees, so put everything it needs in it.",
};

/** A definition's front matter, built when the first definition file is read (most runs have none). */
export const AgentHeader = lazySchema(() => {
  const names = z
    .union([z.array(z.string().min(1)), z.string()])
    .transform((v) => (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim()).filter((s) => s.length > 0));
  return z.object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/, "must be lowercase letters, digits, _ and -")
      .optional(),
    description: z.string().trim().min(1),
    tools: names.optional(),
    model: z
      .string()
      .regex(/^(inherit|[^/\s]+\/\S+)$/, 'must be "provider/model" or "inherit"')
      .optional(),
  });
});

function parseModel(model: string | undefined): AgentDefinition["model"] {
  if (model === undefined || model === "inherit") return undefined;
  const at = model.indexOf("/");
  return { provider: model.slice(0, at), model: model.slice(at + 1) };
}

async function readFolder(dir: string, problems: string[]): Promise<AgentDefinition[]> {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .sort();
  } catch {
    return []; // No such folder: the usual case.
  }
  const out: AgentDefinition[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const header = await readHeader(readFileSync(path, "utf8"), path, AgentHeader, problems);
    if (!header) continue;
    const { data } = header;
    out.push({
      name: data.name ?? basename(file, ".md"),
      description: data.description,
      tools: data.tools,
      model: parseModel(data.model),
      systemPrompt: header.body.trim(),
      path,
    });
  }
  return out;
}

/** The built-in agent, then the user's, then (trusted only) the project's; a later one of a name replaces. */
export async function discoverAgents(
  keelHome: string,
  cwd: string,
  projectTrusted: boolean,
  problems: string[],
): Promise<Map<string, AgentDefinition>> {
  const agents = new Map([[GENERAL.name, GENERAL]]);
  const folders = [join(keelHome, "agents"), ...(projectTrusted ? [join(cwd, ".keel", "agents")] : [])];
  for (const dir of folders) for (const agent of await readFolder(dir, problems)) agents.set(agent.name, agent);
  return agents;
}
