/**
 * The files a project's own hooks run: a hook's `command` that names a file inside the project
 * (`.keel/hooks/guard.sh`, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py`, `bash ./scripts/lint.sh`) runs that
 * file's content, so the content is part of what the user trusted: the trust hash covers it, and an edited
 * script asks again like an edited settings file. Read from the project's settings files only (a file outside
 * the project is the user's own machine, not the repository's).
 */
import { statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** The project folder as a hook command may spell it. */
const PROJECT_DIR = /\$\{?(?:CLAUDE_PROJECT_DIR|KEEL_PROJECT_DIR)\}?/g;

/** Every `command` string of a `hooks` object in Claude Code's format, however deep. */
function commands(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) commands(item, out);
  else if (typeof value === "object" && value !== null)
    for (const [key, item] of Object.entries(value)) {
      if (key === "command" && typeof item === "string") out.push(item);
      else commands(item, out);
    }
  return out;
}

/** The words of a shell command, quotes removed: enough to find the paths it names. */
function words(command: string): string[] {
  return (command.match(/"[^"]*"|'[^']*'|[^\s;&|<>()]+/g) ?? []).map((w) => w.replace(/["']/g, ""));
}

/** What a project's settings files say about hooks: the events they hook and the project files they run. */
export interface ProjectHooks {
  /** Events with at least one hook group (`PreToolUse`), sorted. */
  events: string[];
  /** Files inside the project that a hook command names, relative, sorted. */
  scripts: string[];
}

/** The project's hooks in `settingsTexts` (each a settings file's text). */
export function projectHooks(projectDir: string, settingsTexts: readonly string[]): ProjectHooks {
  const found = new Set<string>();
  const events = new Set<string>();
  for (const text of settingsTexts) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.startsWith("\uFEFF") ? text.slice(1) : text);
    } catch {
      continue; // The settings reader reports it; its hooks never run.
    }
    const hooks = (parsed as { hooks?: unknown } | null)?.hooks;
    if (typeof hooks === "object" && hooks !== null && !Array.isArray(hooks))
      for (const [event, groups] of Object.entries(hooks))
        if (Array.isArray(groups) && groups.length) events.add(event);
    for (const command of commands(hooks))
      for (const word of words(command.replace(PROJECT_DIR, projectDir))) {
        if (!word.includes("/") && !word.includes(".")) continue;
        const path = isAbsolute(word) ? word : resolve(projectDir, word);
        const rel = relative(projectDir, path);
        if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) continue;
        try {
          if (statSync(path).isFile()) found.add(rel.split(sep).join("/"));
        } catch {
          // Not a file of the project: a word of the command, not a script.
        }
      }
  }
  return { events: [...events].sort(), scripts: [...found].sort() };
}
