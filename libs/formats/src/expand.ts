/**
 * A prompt file's text made ready to send, as Claude Code does it for slash commands and skills:
 *
 * - arguments: `$ARGUMENTS` is the argument text as typed, `$1`…`$9` the words by position (quotes group
 *   words), `$@` all words (keel's prompt templates); one pass, so an argument's own `$1` stays as typed. A text
 *   that takes no arguments gets them appended as `ARGUMENTS: …` (Claude Code's rule), unless told not to;
 * - `` !`command` `` (and a fenced block opened with ```` ```! ````): the command's output in its place, run
 *   by the caller (through the permission policy);
 * - `@path` naming a file: its contents added after the text, read by the caller (through the policy too);
 * - `${NAME}` for the variables the caller gives (`CLAUDE_PLUGIN_ROOT` for a plugin's files, as Claude Code
 *   fills it in their text), first, so a `!` command or an `@path` may use them.
 */

/** What expansion needs from the session; both run through the permission policy in keel. */
export interface ExpandSteps {
  /** Runs a command and returns the text to put in its place (its output, or why it did not run). */
  shell(command: string): Promise<string>;
  /** The contents of a file an `@path` names; undefined when the path is not a file (the text stays as written). */
  file(path: string): Promise<string | undefined>;
}

/** Splits an argument line like a shell would for words: spaces separate, quotes group, no expansion. */
export function splitArguments(line: string): string[] {
  const args: string[] = [];
  for (const match of line.matchAll(/"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g))
    args.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3]!));
  return args;
}

const PLACEHOLDER = /\$(ARGUMENTS|@|[1-9])/g;

/** `body` with its argument placeholders filled from `line`; see the module comment for `appendUnused`. */
export function substituteArguments(body: string, line: string, appendUnused = false): string {
  const args = splitArguments(line);
  const typed = line.trim();
  let used = false;
  const out = body.replace(PLACEHOLDER, (_, key: string) => {
    used = true;
    return key === "ARGUMENTS" ? typed : key === "@" ? args.join(" ") : (args[Number(key) - 1] ?? "");
  });
  return appendUnused && !used && typed ? `${out.trimEnd()}\n\nARGUMENTS: ${typed}` : out;
}

/** A fenced block opened with ```! (its lines are one command), or an inline !`command`. */
const SHELL = /^```![ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*$|!`([^`\n]+)`/gm;
/** `@path` at the start or after white space; trailing punctuation is not part of the path. */
const FILE_REFERENCE = /(^|[\s(])@([\w./~-][^\s`'")]*)/g;

/** Fenced code and inline code spans are examples, not references: their `@x` is left alone. */
function outsideCode(text: string): string {
  return text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
}

/** Runs each `!` command in order and puts its output in its place. */
async function runShell(text: string, steps: ExpandSteps): Promise<string> {
  const commands: string[] = [];
  const marked = text.replace(
    SHELL,
    (_, fenced: string | undefined, inline: string | undefined) =>
      `\u0000${commands.push((fenced ?? inline)!.trim()) - 1}\u0000`,
  );
  if (commands.length === 0) return text;
  const outputs: string[] = [];
  for (const command of commands) outputs.push(await steps.shell(command));
  return marked.replace(/\u0000(\d+)\u0000/g, (_, i: string) => outputs[Number(i)]!);
}

/** The `@path` references of `text` outside code, in order, each once. */
export function fileReferences(text: string): string[] {
  const paths = [...outsideCode(text).matchAll(FILE_REFERENCE)].map((m) => m[2]!.replace(/[.,;:!?]+$/, ""));
  return [...new Set(paths)].filter((path) => path.length > 0);
}

export async function expandPrompt(
  body: string,
  argumentLine: string,
  steps: ExpandSteps,
  options: { appendUnused?: boolean; variables?: Readonly<Record<string, string>> } = {},
): Promise<string> {
  const variables = options.variables ?? {};
  const filled = body.replace(/\$\{([A-Z_][A-Z0-9_]*)\}/g, (text, name: string) => variables[name] ?? text);
  const withArguments = substituteArguments(filled, argumentLine, options.appendUnused ?? true);
  const references = fileReferences(withArguments);
  let text = await runShell(withArguments, steps);
  for (const path of references) {
    const contents = await steps.file(path);
    if (contents !== undefined) text += `\n\nContents of ${path}:\n${contents.trimEnd()}`;
  }
  return text;
}
