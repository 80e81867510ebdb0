/**
 * Completion in the editor: slash commands (every plugin's, with descriptions, and their arguments where the
 * command lists them) through pi-tui's provider, and `@` file paths from the workspace, read folder by folder
 * (pi-tui's own `@` search needs the `fd` program, which is not always installed).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import {
  CombinedAutocompleteProvider,
  type AutocompleteItem,
  type AutocompleteProvider,
  type AutocompleteSuggestions,
  type SlashCommand,
} from "@earendil-works/pi-tui";

const SKIPPED = new Set([".git", "node_modules"]);

/** The `@path` being typed just before the cursor, or undefined. */
function atPrefix(textBeforeCursor: string): string | undefined {
  const match = /(?:^|\s)@([^\s@]*)$/.exec(textBeforeCursor);
  return match?.[1];
}

/** Entries of the folder `prefix` names whose names start with its last part; folders end with `/`. */
export function pathSuggestions(cwd: string, prefix: string): AutocompleteItem[] {
  const slash = prefix.lastIndexOf("/");
  const dir = prefix.slice(0, slash + 1);
  const start = prefix.slice(slash + 1);
  let entries;
  try {
    entries = readdirSync(join(cwd, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter(
      (e) => e.name.startsWith(start) && !SKIPPED.has(e.name) && (start.startsWith(".") || !e.name.startsWith(".")),
    )
    .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
    .slice(0, 50)
    .map((e) => {
      const path = `${dir}${e.name}${e.isDirectory() ? "/" : ""}`;
      return { value: `@${path}`, label: path };
    });
}

export class KeelCompletion implements AutocompleteProvider {
  private readonly commands: CombinedAutocompleteProvider;

  constructor(
    commands: SlashCommand[],
    private readonly cwd: string,
  ) {
    this.commands = new CombinedAutocompleteProvider(commands, cwd, null);
  }

  async getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<AutocompleteSuggestions | null> {
    const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
    const at = atPrefix(before);
    if (at !== undefined) {
      const items = pathSuggestions(this.cwd, at);
      return items.length ? { items, prefix: `@${at}` } : null;
    }
    return this.commands.getSuggestions(lines, cursorLine, cursorCol, options);
  }

  applyCompletion(lines: string[], cursorLine: number, cursorCol: number, item: AutocompleteItem, prefix: string) {
    if (!prefix.startsWith("@")) return this.commands.applyCompletion(lines, cursorLine, cursorCol, item, prefix);
    const line = lines[cursorLine] ?? "";
    const start = cursorCol - prefix.length;
    // A folder stays open for the next part; a file is done, so a space follows.
    const value = item.value.endsWith("/") ? item.value : `${item.value} `;
    const next = [...lines];
    next[cursorLine] = line.slice(0, start) + value + line.slice(cursorCol);
    return { lines: next, cursorLine, cursorCol: start + value.length };
  }

  shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
    return (
      atPrefix((lines[cursorLine] ?? "").slice(0, cursorCol)) !== undefined ||
      this.commands.shouldTriggerFileCompletion(lines, cursorLine, cursorCol)
    );
  }
}
