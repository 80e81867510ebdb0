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

export function buildSystemPrompt(
  configured: string,
  context: SessionContext,
  toolNames: readonly string[],
  cwd: string,
): string {
  const parts = [configured.trim() === "" ? defaultBase(toolNames) : configured.trimEnd(), context.facts];
  for (const file of context.instructions) parts.push(`Instructions from ${file.path}:\n${file.text}`);
  if (context.skills.length > 0) {
    const lines = context.skills.map((s) => `- ${s.name}: ${s.description} (${shown(s.path, cwd)})`);
    parts.push(["Skills: when a task matches one, read its file first and follow it.", ...lines].join("\n"));
  }
  return parts.join("\n\n");
}
