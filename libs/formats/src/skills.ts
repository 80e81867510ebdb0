/**
 * Skills (agentskills.io, with Claude Code's fields): a folder holding `SKILL.md` (or `skill.md`) is a skill;
 * its other files are references the skill's text points to. A skill may sit in a grouping folder or inside
 * another skill's folder (a nested skill), so folders are walked a few levels down. The front matter's `name`
 * defaults to the folder's, `description` to the text's first paragraph; Claude Code's `allowed-tools`,
 * `disable-model-invocation`, `user-invocable`, `argument-hint` and `model` are read.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseFrontMatter } from "@keel/front-matter";
import { firstParagraph, flag, names, text, type Fields } from "./fields.ts";
import { Notes } from "./notes.ts";
import { parseToolSpec, type ToolSpec } from "./tools.ts";

export interface SkillFile {
  name: string;
  description: string;
  /** The SKILL.md file. */
  path: string;
  /** Listed for the model to choose (`disable-model-invocation: false`, the default). */
  modelInvocable: boolean;
  /** Offered as a command (`user-invocable: true`, the default). */
  userInvocable: boolean;
  argumentHint?: string;
  allowedTools: ToolSpec[];
  model?: string;
}

const FILE_NAMES = ["SKILL.md", "skill.md"];
const MAX_DEPTH = 3;
const NAME = /^[A-Za-z0-9][\w.:-]{0,63}$/;

const NOT_HONOURED: Readonly<Record<string, string>> = {
  context: "`context: fork` (the skill runs in the conversation)",
  agent: "`agent` (the skill runs in the conversation)",
  hooks: "`hooks` scoped to the skill",
  effort: "`effort` (the session's thinking level applies)",
  paths: "`paths` (the skill is offered whatever files are open)",
};

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith(".") && e.name !== "node_modules")
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function skillFileIn(dir: string): { path: string; text: string } | undefined {
  for (const name of FILE_NAMES) {
    const path = join(dir, name);
    try {
      return { path, text: readFileSync(path, "utf8") };
    } catch {
      // Not this name; a folder without either is not a skill (scripts, assets, references).
    }
  }
  return undefined;
}

/** Reads one skill's file; undefined (with a note) when it cannot be one. */
export async function readSkillFile(dir: string, path: string, source: string, notes: Notes) {
  let fields: Fields;
  let body: string;
  try {
    ({ data: fields, body } = await parseFrontMatter(source));
  } catch (error) {
    return notes.refuse(path, (error as Error).message.split("\n")[0]!);
  }
  const name = text(fields, "name") || basename(dir);
  if (!NAME.test(name))
    return notes.refuse(path, `its name "${name}" must be letters, digits, _, ., : and - (at most 64)`);
  const description = text(fields, "description");
  if (description === false) return notes.refuse(path, `front matter key "description" must be text`);
  const about = description || firstParagraph(body);
  if (!about) return notes.refuse(path, "it has no description, so the model could not tell when to use it");
  const hint = text(fields, "argument-hint");
  const model = text(fields, "model");
  notes.unhonoured(
    path,
    Object.keys(NOT_HONOURED)
      .filter((key) => fields[key] !== undefined)
      .map((key) => NOT_HONOURED[key]!),
  );
  const skill: SkillFile = {
    name,
    description: about.slice(0, 1024),
    path,
    modelInvocable: !flag(fields, "disable-model-invocation", false),
    userInvocable: flag(fields, "user-invocable", flag(fields, "user-invokable", true)),
    allowedTools: (names(fields, "allowed-tools") ?? []).map(parseToolSpec),
    ...(hint && { argumentHint: hint }),
    ...(model && model !== "inherit" && { model }),
  };
  return skill;
}

/** Every skill under `dir`: its folders, grouping folders and skills nested in skills, in a stable order. */
export async function readSkills(dir: string, notes: Notes, depth = 0): Promise<SkillFile[]> {
  const out: SkillFile[] = [];
  // A plugin may name a skill's own folder rather than a folder of skills (Claude Code's `skills: ["./x"]`).
  const own = depth === 0 ? skillFileIn(dir) : undefined;
  if (own) {
    const skill = await readSkillFile(dir, own.path, own.text, notes);
    return skill ? [skill] : [];
  }
  for (const folder of subfolders(dir)) {
    const path = join(dir, folder);
    const found = skillFileIn(path);
    if (found) {
      const skill = await readSkillFile(path, found.path, found.text, notes);
      if (skill) out.push(skill);
    }
    if (depth + 1 < MAX_DEPTH) out.push(...(await readSkills(path, notes, depth + 1)));
  }
  return out;
}

/** A skill's text without its front matter, for sending it. */
export async function skillText(path: string): Promise<string> {
  const source = readFileSync(path, "utf8");
  try {
    return (await parseFrontMatter(source)).body.trim();
  } catch {
    return source.trim();
  }
}
