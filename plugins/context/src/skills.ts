/**
 * Agent Skills (agentskills.io, with Claude Code's fields; read by `@keel/formats/skills`): only a skill's
 * name, description and path enter the system prompt; the model reads the file when a task matches, and
 * `/skill:<name>` makes it use one now. A skill that switches model invocation off is not listed; one that is
 * not user-invocable gets no command.
 */
import { Notes, noteText } from "@keel/formats";
import { readSkills, type SkillFile } from "@keel/formats/skills";
import type { Source } from "./sources.ts";

export interface Skill extends SkillFile {
  /** `project`, `user`, or the plugin's name. */
  origin: string;
  /** From a trusted place: its `allowed-tools` may be granted. */
  trusted: boolean;
}

/** Every skill of `sources`, the first of each name winning; clashes and bad files go to `problems`. */
export async function discoverSkills(sources: readonly Source[], problems: string[]): Promise<Skill[]> {
  const found = new Map<string, Skill>();
  const notes = new Notes();
  for (const source of sources) {
    for (const skill of await readSkills(source.dir, notes)) {
      const earlier = found.get(skill.name);
      if (earlier) problems.push(`skill "${skill.name}" in ${skill.path} is hidden by the one in ${earlier.path}`);
      else found.set(skill.name, { ...skill, origin: source.origin, trusted: source.trusted });
    }
  }
  problems.push(...notes.list.map(noteText));
  return [...found.values()];
}
