/**
 * Claude Code's slash commands: each `<name>.md` of a commands folder is `/<name>`, and a file in a subfolder
 * is namespaced by it (`git/commit.md` → `/git:commit`). The front matter says `description` (else the first
 * line of the text), `argument-hint`, `allowed-tools` and `model`; the text after it is the prompt, expanded
 * when the command runs (expand.ts). A plugin's commands get the plugin's name as a prefix (`plugin:command`).
 * Gemini CLI's `<name>.toml` commands are read into the same shape (toml-commands.ts).
 */
import { readFileSync } from "node:fs";
import { parseFrontMatter } from "@keel/front-matter";
import { names, text, type Fields } from "./fields.ts";
import { markdownFiles } from "./markdown-files.ts";
import { Notes } from "./notes.ts";
import { parseToolSpec, type ToolSpec } from "./tools.ts";

export interface CommandFile {
  /** Without the slash: `review`, `git:commit`, `plugin:git:commit`. */
  name: string;
  description: string;
  argumentHint?: string;
  /** Tools the command may use without asking, as Claude Code grants them (`allowed-tools`). */
  allowedTools: ToolSpec[];
  /** The model to run it on, as written (an alias such as `haiku`, or a model id). */
  model?: string;
  /** The prompt, before expansion. */
  body: string;
  path: string;
}

/** Claude Code command fields keel reads but does not act on, with why; said once per file. */
const NOT_HONOURED: Readonly<Record<string, string>> = {
  context: "`context: fork` (the command runs in the conversation)",
  agent: "`agent` (the command runs in the conversation)",
  hooks: "`hooks` scoped to the command",
  effort: "`effort` (the session's thinking level applies)",
};

const SEGMENT = /^[A-Za-z0-9][\w.-]*$/;

/** Reads one command file; undefined (with a note) when it cannot be a command. */
export async function readCommandFile(
  path: string,
  name: string,
  notes: Notes,
  read = (file: string) => readFileSync(file, "utf8"),
): Promise<CommandFile | undefined> {
  if (!name.split(":").every((part) => SEGMENT.test(part)))
    return notes.refuse(
      path,
      "a command's file and folder names become its /name, so they may hold only letters, digits, _, . and -",
    );
  let fields: Fields;
  let body: string;
  try {
    ({ data: fields, body } = await parseFrontMatter(read(path)));
  } catch (error) {
    return notes.refuse(path, (error as Error).message.split("\n")[0]!);
  }
  const description = text(fields, "description");
  const hint = text(fields, "argument-hint");
  const model = text(fields, "model");
  for (const [key, value] of [
    ["description", description],
    ["argument-hint", hint],
    ["model", model],
  ] as const)
    if (value === false) return notes.refuse(path, `front matter key "${key}" must be text`);
  const firstLine = body
    .trim()
    .split("\n", 1)[0]!
    .replace(/^#+\s*/, "")
    .slice(0, 100);
  const ignored = Object.keys(NOT_HONOURED).filter((key) => fields[key] !== undefined);
  notes.unhonoured(
    path,
    ignored.map((key) => NOT_HONOURED[key]!),
  );
  return {
    name,
    description: (description || firstLine || `command from ${path}`) as string,
    ...(hint && { argumentHint: hint }),
    allowedTools: (names(fields, "allowed-tools") ?? []).map(parseToolSpec),
    ...(model && model !== "inherit" && { model }),
    body: body.trim(),
    path,
  };
}

/** Every command of a commands folder, subfolders namespacing their files; `prefix` is a plugin's name. */
export async function readCommands(dir: string, notes: Notes, prefix?: string): Promise<CommandFile[]> {
  const out: CommandFile[] = [];
  for (const file of markdownFiles(dir, 0, "", [".md", ".toml"])) {
    const name = [prefix, ...file.stem.split("/")].filter(Boolean).join(":");
    // Gemini CLI's commands are TOML; its reader (and the TOML parser) loads only for one.
    const command = file.path.endsWith(".toml")
      ? await (await import("./toml-commands.ts")).readTomlCommand(file.path, name, notes)
      : await readCommandFile(file.path, name, notes);
    if (command) out.push(command);
  }
  return out;
}
