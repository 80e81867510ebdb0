/**
 * Slash commands in Claude Code's format (`@keel/formats/commands`): `.claude/commands` of each project folder
 * (once it is trusted) and `$KEEL_HOME/commands`, the first of a name winning; `git/commit.md` is `/git:commit`.
 */
import { Notes, noteText } from "@keel/formats";
import { readCommands, type CommandFile } from "@keel/formats/commands";
import type { Source } from "./sources.ts";

export interface Command extends CommandFile {
  origin: string;
  trusted: boolean;
}

export async function discoverCommands(sources: readonly Source[], problems: string[]): Promise<Command[]> {
  const found = new Map<string, Command>();
  const notes = new Notes();
  for (const source of sources)
    for (const command of await readCommands(source.dir, notes, source.prefix)) {
      const earlier = found.get(command.name);
      if (earlier) problems.push(`command /${command.name} in ${command.path} is hidden by the one in ${earlier.path}`);
      else found.set(command.name, { ...command, origin: source.origin, trusted: source.trusted });
    }
  problems.push(...notes.list.map(noteText));
  return [...found.values()];
}
