/**
 * What one session's prompt is built from, read once when the session starts (so every request sends the same
 * bytes and a provider's prompt cache keeps hitting): the facts, the project instructions, the skills, the
 * templates and the slash commands. Reading costs a few `stat`s and small reads; nothing is spawned, and the
 * readers of each kind load only when one of its folders exists.
 */
import { existsSync } from "node:fs";
import type { PluginInfo } from "@keel/extensions-api";
import type { Command } from "./claude-commands.ts";
import { projectFolders } from "./folders.ts";
import { gitBranch } from "./git-branch.ts";
import { readInstructions, type Caps, type InstructionFile } from "./instructions.ts";
import type { Skill } from "./skills.ts";
import { pluginInstructions, sourcesOf, type Source } from "./sources.ts";
import type { Template } from "./templates.ts";

export interface SessionContext {
  /** `Date: … Folder: … Platform: … Git branch: …` */
  facts: string;
  instructions: InstructionFile[];
  skills: Skill[];
  templates: Template[];
  commands: Command[];
  /** What the user should hear about: cut files, bad front matter, hidden duplicates. */
  problems: string[];
}

export interface ContextInputs {
  cwd: string;
  keelHome: string;
  caps: Caps;
  plugins: readonly PluginInfo[];
  /** Whether the project's configuration applies (its `.claude/commands` are read only then). */
  projectTrusted: boolean;
  now?: Date;
}

/** The sources that exist; none (the usual case) means the kind's reader is never loaded. */
const present = (sources: readonly Source[]) => sources.filter((source) => existsSync(source.dir));

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
  const sources = sourcesOf(chain, keelHome, plugins, inputs.projectTrusted);
  const skills = present(sources.skills);
  const prompts = present(sources.prompts);
  const commands = present(sources.commands);
  return {
    facts,
    instructions: await readInstructions([keelHome, ...chain], caps, problems, pluginInstructions(plugins)),
    skills: skills.length ? await (await import("./skills.ts")).discoverSkills(skills, problems) : [],
    templates: prompts.length ? await (await import("./templates.ts")).discoverTemplates(prompts, problems) : [],
    commands: commands.length ? await (await import("./claude-commands.ts")).discoverCommands(commands, problems) : [],
    problems,
  };
}
