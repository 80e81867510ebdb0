/**
 * The system prompt: the base (the `systemPrompt` setting, else the default identity and guidelines), the
 * session's facts, the project instructions widest first, and the skills by name, description and path.
 */
import { relative } from "node:path";
import { defaultBase } from "./base-prompt.ts";
import type { SessionContext } from "./session-context.ts";

/** A path under the working folder as the tools take it (relative), any other as it is. */
function shown(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith("..") || rel === "" ? path : rel;
}

/**
 * `configured` is the `systemPrompt` setting followed by the distribution's `additions`: the additions join
 * keel's own words when no prompt is set, rather than counting as one.
 */
export function buildSystemPrompt(
  configured: string,
  context: SessionContext,
  toolNames: readonly string[],
  cwd: string,
  additions: readonly string[] = [],
  name = "keel",
): string {
  const added = additions.filter((part) => part.length > 0).join("\n\n");
  const setting = (added && configured.endsWith(added) ? configured.slice(0, -added.length) : configured).trim();
  const base =
    setting === "" ? [defaultBase(toolNames, name), ...(added ? [added] : [])].join("\n\n") : configured.trimEnd();
  const parts = [base, context.facts];
  for (const file of context.instructions)
    parts.push(
      `Instructions from ${file.path}${file.importedBy ? ` (imported by ${file.importedBy})` : ""}:\n${file.text}`,
    );
  const offered = context.skills.filter((s) => s.modelInvocable);
  if (offered.length > 0) {
    const lines = offered.map((s) => `- ${s.name}: ${s.description} (${shown(s.path, cwd)})`);
    parts.push(["Skills: when a task matches one, read its file first and follow it.", ...lines].join("\n"));
  }
  return parts.join("\n\n");
}
