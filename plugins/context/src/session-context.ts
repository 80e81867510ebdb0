/**
 * What one session's prompt is built from, read once when the session starts (so every request sends the same
 * bytes and a provider's prompt cache keeps hitting): the facts, the project instructions, the skills and the
 * templates. Reading costs a few `stat`s and small reads; nothing is spawned.
 */
import type { PluginInfo } from "@keel/extensions-api";
import { projectFolders } from "./folders.ts";
import { gitBranch } from "./git-branch.ts";
import { readInstructions, type Caps, type InstructionFile } from "./instructions.ts";
import { discoverSkills, type Skill } from "./skills.ts";
import { sourcesOf } from "./sources.ts";
import { discoverTemplates, type Template } from "./templates.ts";

export interface SessionContext {
  /** `Date: … Folder: … Platform: … Git branch: …` */
  facts: string;
  instructions: InstructionFile[];
  skills: Skill[];
  templates: Template[];
  /** What the user should hear about: cut files, bad front matter, hidden duplicates. */
  problems: string[];
}

export interface ContextInputs {
  cwd: string;
  keelHome: string;
  caps: Caps;
  plugins: readonly PluginInfo[];
  now?: Date;
}

function isoDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export async function readSessionContext(inputs: ContextInputs): Promise<SessionContext> {
  const { cwd, keelHome, caps, plugins } = inputs;
  const problems: string[] = [];
  const { chain, repoRoot } = projectFolders(cwd);
  const branch = repoRoot && gitBranch(repoRoot);
  const facts = [
    `Date: ${isoDate(inputs.now ?? new Date())}.`,
    `Folder: ${cwd}.`,
    `Platform: ${process.platform}.`,
    ...(branch ? [`Git branch: ${branch}.`] : []),
  ].join(" ");
  const sources = sourcesOf(chain, keelHome, plugins);
  return {
    facts,
    instructions: readInstructions([keelHome, ...chain], caps, problems),
    skills: await discoverSkills(sources.skills, problems),
    templates: await discoverTemplates(sources.prompts, problems),
    problems,
  };
}
