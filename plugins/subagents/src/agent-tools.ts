/**
 * What a defined agent may use, from its tools as written: each entry names a keel tool (Claude Code's names
 * mapped through `@keel/formats/tools`); an entry with a pattern (`Bash(git *)`) gives the tool only for calls
 * the pattern matches, and `permissionMode: plan` gives read-only calls only. The limits are a guard on the
 * agent's calls, so they only narrow: the session's permission policy still judges every call after them.
 */
import type { ToolCallEvent } from "@keel/extensions-api";
import type { ToolSpec } from "@keel/formats/tools";
import type { AgentDefinition } from "./agents.ts";

/** The session's tools the agent gets, and the names it listed that the session does not have. */
export function agentTools(
  agent: AgentDefinition,
  session: readonly string[],
  own: string,
): {
  tools: string[];
  missing: string[];
} {
  const denied = new Set(agent.disallowedTools.filter((t) => t.pattern === undefined).map((t) => t.keel));
  const usable = (name: string) => name !== own && !denied.has(name);
  if (!agent.tools) return { tools: session.filter(usable), missing: [] };
  const wanted = [...new Set(agent.tools.map((t) => t.keel).filter((name): name is string => name !== undefined))];
  const missing = agent.tools.filter((t) => t.keel === undefined || (t.keel !== own && !session.includes(t.keel)));
  return {
    tools: wanted.filter((name) => usable(name) && session.includes(name)),
    missing: [...new Set(missing.map((t) => t.name))],
  };
}

/** The text a pattern is matched against: a command, a path, a search. */
function subjectOf(input: Record<string, unknown>): string | undefined {
  for (const key of ["command", "path", "pattern", "url", "query"])
    if (typeof input[key] === "string") return input[key] as string;
  return undefined;
}

function wildcard(pattern: string): RegExp {
  const text = pattern.replace(/:\*$/, " *");
  const source = text
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  // `git *` also matches `git` alone, as a permission rule's trailing ` *` does.
  return new RegExp(`^${source.endsWith(" .*") ? `${source.slice(0, -3)}(?: .*)?` : source}$`, "s");
}

/** A command that chains, substitutes or redirects does more than its first words say. */
const SHELL_OPERATORS = /[;&|`$<>()\n]/;

/** Why the agent may not make this call, or undefined. */
export function refusal(agent: AgentDefinition, call: ToolCallEvent): string | undefined {
  const where = agent.path ? ` (${agent.path})` : "";
  if (agent.permissionMode === "plan" && !call.readOnly)
    return `agent "${agent.name}"${where} plans only (permissionMode: plan): ${call.toolName} changes things`;
  const patterns = (list: readonly ToolSpec[] | undefined) =>
    (list ?? []).filter((t) => t.keel === call.toolName && t.pattern !== undefined).map((t) => t.pattern!);
  const subject = subjectOf(call.input);
  const denied = patterns(agent.disallowedTools).find((p) => subject !== undefined && wildcard(p).test(subject));
  if (denied) return `agent "${agent.name}"${where} may not run ${call.toolName}(${denied})`;
  if (agent.tools?.some((t) => t.keel === call.toolName && t.pattern === undefined)) return undefined;
  const allowed = patterns(agent.tools);
  if (allowed.length === 0) return undefined;
  const fits =
    subject !== undefined &&
    (call.toolName !== "bash" || !SHELL_OPERATORS.test(subject)) &&
    allowed.some((p) => wildcard(p).test(subject));
  if (fits) return undefined;
  const forms = allowed.map((p) => `${call.toolName}(${p})`).join(", ");
  return (
    `agent "${agent.name}"${where} may use ${call.toolName} only as ${forms}` +
    (call.toolName === "bash" ? ", one plain command at a time" : "")
  );
}
