/**
 * Agent Skills (agentskills.io): a folder with a `SKILL.md` whose front matter has `name` and `description`.
 * Only those two and the file's path enter the system prompt; the model reads the file when a task matches,
 * and `/skill:<name>` makes it use one now.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";
import { readHeader } from "@keel/front-matter";
import type { Source } from "./sources.ts";

export interface Skill {
  name: string;
  description: string;
  /** The SKILL.md file. */
  path: string;
  origin: string;
}

// The Agent Skills format's limits: a lowercase name with hyphens, a description the model can choose by.
// Built when the first SKILL.md is read (most runs have none).
export const SkillHeader = lazySchema(() =>
  z.object({
    name: z
      .string()
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be lowercase letters, digits and single hyphens")
      .max(64),
    description: z.string().trim().min(1).max(1024),
  }),
);

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name)
      .sort();
  } catch {
    return []; // No such folder: the usual case.
  }
}

/** Every skill of `sources`, the first of each name winning; clashes and bad files go to `problems`. */
export async function discoverSkills(sources: readonly Source[], problems: string[]): Promise<Skill[]> {
  const found = new Map<string, Skill>();
  for (const source of sources) {
    for (const folder of subfolders(source.dir)) {
      const path = join(source.dir, folder, "SKILL.md");
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        continue; // A folder without SKILL.md is not a skill (scripts, assets).
      }
      const header = await readHeader(text, path, SkillHeader, problems);
      if (!header) continue;
      const { name, description } = header.data;
      const earlier = found.get(name);
      if (earlier) {
        problems.push(`skill "${name}" in ${path} is hidden by the one in ${earlier.path}`);
        continue;
      }
      found.set(name, { name, description, path, origin: source.origin });
    }
  }
  return [...found.values()];
}

/** The body of a skill's file, for `/skill:<name>`. */
export async function skillBody(skill: Skill): Promise<string> {
  const text = readFileSync(skill.path, "utf8");
  const header = await readHeader(text, skill.path, z.object({}).loose(), []);
  return (header?.body ?? text).trim();
}
