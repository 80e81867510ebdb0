/**
 * Gemini CLI's custom commands: a `<name>.toml` file with `prompt` (required) and `description`. Its placeholders
 * are written in Claude Code's command syntax so one expansion runs both (expand.ts): `{{args}}` is `$ARGUMENTS`,
 * `!{command}` a `!` line (its braces balanced, as Gemini reads them), `@{path}` an `@path`. A prompt without
 * `{{args}}` gets the arguments appended, as in Gemini CLI. smol-toml (1.9.1: pure JavaScript, no dependencies,
 * TOML 1.0) is loaded only when a commands folder holds a TOML file.
 */
import { readFileSync } from "node:fs";
import type { CommandFile } from "./commands.ts";
import { Notes } from "./notes.ts";

/** The end of a `{…}` group opened at `start` (the index after `{`), counting nested braces; -1 if unclosed. */
function closing(text: string, start: number): number {
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Gemini's placeholders in Claude Code's syntax. */
export function geminiPrompt(prompt: string): string {
  let out = "";
  let i = 0;
  while (i < prompt.length) {
    const marker = prompt.startsWith("!{", i) ? "!" : prompt.startsWith("@{", i) ? "@" : undefined;
    const end = marker ? closing(prompt, i + 2) : -1;
    if (!marker || end < 0) {
      out += prompt[i++];
      continue;
    }
    const inner = prompt.slice(i + 2, end).trim();
    if (marker === "@") out += `@${inner}`;
    else out += /[`\n]/.test(inner) ? `\n\`\`\`!\n${inner}\n\`\`\`\n` : `!\`${inner}\``;
    i = end + 1;
  }
  return out.replace(/\{\{args\}\}/g, "$ARGUMENTS");
}

export async function readTomlCommand(path: string, name: string, notes: Notes): Promise<CommandFile | undefined> {
  const { parse } = await import("smol-toml");
  let data: Record<string, unknown>;
  try {
    data = parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    return notes.refuse(path, `it is not TOML (${(error as Error).message.split("\n")[0]})`);
  }
  if (typeof data.prompt !== "string" || data.prompt.trim() === "")
    return notes.refuse(path, 'a Gemini CLI command needs a "prompt" string');
  const description = typeof data.description === "string" ? data.description.trim() : "";
  notes.unhonoured(
    path,
    Object.keys(data)
      .filter((key) => key !== "prompt" && key !== "description")
      .map((key) => `the key "${key}"`),
  );
  const body = geminiPrompt(data.prompt.trim());
  return {
    name,
    description: description || `command from ${path}`,
    allowedTools: [],
    // Gemini appends the arguments when the prompt does not place them: Claude Code's rule does the same.
    body,
    path,
  };
}
