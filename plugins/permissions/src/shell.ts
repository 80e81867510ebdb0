/**
 * Parses a bash command line into the simple commands it runs, with tree-sitter's bash grammar (web-tree-sitter
 * and the grammar's WebAssembly build: a real parser that also reads broken input, loaded on the first bash
 * call). Rules and classification look at each command on its own — `&&`, `||`, `;`, `|`, newlines, subshells,
 * blocks, loops and the commands inside `$(…)`, backticks, `<(…)` and `bash -c '…'` all count — and at what
 * the line as a whole does that no single command shows: substitutions, redirections to files, parse errors.
 */
import { createRequire } from "node:module";
import type { Node, Parser } from "web-tree-sitter";

/** One simple command, as the shell would run it. */
export interface ShellCommand {
  /** Its words with quotes and escapes removed; a word the shell computes at run time keeps its source text. */
  words: string[];
  /** For each word, whether it is fixed text (no `$x`, `$(…)`, `$'…'`). */
  literal: boolean[];
  /** Names of the variables it assigns (`FOO=1 cmd`, `export FOO=1`, a bare `FOO=1`). */
  assigns: string[];
  /** Inside a substitution or a `bash -c` string rather than on the line itself. */
  nested: boolean;
  /** The source text, for messages. */
  source: string;
}

/** A redirection of output to a file. */
export interface ShellRedirect {
  /** The file, when its name is fixed text; undefined when the shell computes it (`> $out`). */
  target: string | undefined;
}

export interface ParsedShell {
  commands: ShellCommand[];
  redirects: ShellRedirect[];
  /** `$(…)`, backticks, `<(…)` or `>(…)` somewhere on the line. */
  substitution: boolean;
  /** The parser could not read all of it: what runs cannot be told from the text. */
  parseError: boolean;
}

/** Shells whose `-c` string, and builtins whose arguments, are parsed as commands too. */
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh"]);
const MAX_NESTING = 3;

let parser: Promise<Parser> | undefined;

/** Loads the grammar once per process (about 30 ms); later calls resolve at once. */
export function loadShellParser(): Promise<Parser> {
  parser ??= (async () => {
    const require = createRequire(import.meta.url);
    const { Parser, Language } = (await import("web-tree-sitter")) as typeof import("web-tree-sitter");
    await Parser.init({ locateFile: () => require.resolve("web-tree-sitter/web-tree-sitter.wasm") });
    const bash = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
    return new Parser().setLanguage(bash);
  })().catch((error: unknown) => {
    parser = undefined;
    throw new Error(
      `the bash grammar could not be loaded (${(error as Error).message}); reinstall keel's dependencies`,
    );
  });
  return parser;
}

/** Parses `command` with a parser from `loadShellParser()`. */
export function parseShell(shell: Parser, command: string): ParsedShell {
  const out: ParsedShell = { commands: [], redirects: [], substitution: false, parseError: false };
  parseInto(shell, command, out, 0);
  return out;
}

function parseInto(shell: Parser, text: string, out: ParsedShell, depth: number): void {
  const tree = shell.parse(text);
  if (!tree) {
    out.parseError = true;
    return;
  }
  try {
    if (tree.rootNode.hasError) out.parseError = true;
    walk(tree.rootNode, depth > 0);
  } finally {
    tree.delete();
  }

  function walk(node: Node, nested: boolean): void {
    switch (node.type) {
      case "command":
        return command(node, nested);
      case "declaration_command":
      case "unset_command":
        return declaration(node, nested);
      case "variable_assignment": {
        const assigns: string[] = [];
        assignment(node, assigns, nested);
        out.commands.push({ words: [], literal: [], assigns, nested, source: node.text });
        return;
      }
      case "file_redirect":
        return redirect(node);
      case "command_substitution":
      case "process_substitution":
        out.substitution = true;
        for (const child of node.namedChildren) if (child) walk(child, true);
        return;
      case "comment":
        return;
    }
    for (const child of node.namedChildren) if (child) walk(child, nested);
  }

  function command(node: Node, nested: boolean): void {
    const words: string[] = [];
    const literal: boolean[] = [];
    const assigns: string[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") assignment(child, assigns, nested);
      else if (child.type === "file_redirect" || child.type === "herestring_redirect") redirect(child);
      else {
        const value = literalText(child);
        words.push(value ?? child.text);
        literal.push(value !== undefined);
        walk(child, nested); // substitutions inside a word run commands of their own
      }
    }
    out.commands.push({ words, literal, assigns, nested, source: node.text });
    if (depth < MAX_NESTING) inlineScript(words, literal);
  }

  function declaration(node: Node, nested: boolean): void {
    const words = [node.child(0)?.text ?? ""];
    const literal = [true];
    const assigns: string[] = [];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") assignment(child, assigns, nested);
      else {
        const value = literalText(child);
        words.push(value ?? child.text);
        literal.push(value !== undefined);
        walk(child, nested);
      }
    }
    out.commands.push({ words, literal, assigns, nested, source: node.text });
  }

  function assignment(node: Node, assigns: string[], nested: boolean): void {
    assigns.push(assignedName(node));
    const value = node.childForFieldName("value");
    if (value) walk(value, nested);
  }

  function redirect(node: Node): void {
    const operator = node.children.find((c) => c && !c.isNamed)?.text ?? "";
    const destination = node.childForFieldName("destination");
    if (destination) walk(destination, true);
    if (!/>/.test(operator) || !destination) return; // input redirections read, they write nothing
    if (destination.type === "number" || destination.text === "-") return; // `2>&1`, `>&-`: a descriptor, not a file
    out.redirects.push({ target: literalText(destination) });
  }

  /** `bash -c 'git push'` and `eval 'git push'` run their string: its commands count like the line's own. */
  function inlineScript(words: string[], literal: boolean[]): void {
    const name = words[0];
    let script: string | undefined;
    if (name === "eval" && literal.slice(1).every(Boolean)) script = words.slice(1).join(" ");
    else if (name !== undefined && SHELLS.has(name)) {
      const flag = words.findIndex((w, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(w));
      if (flag > 0 && literal[flag + 1]) script = words[flag + 1];
    }
    if (script !== undefined) parseInto(shell, script, out, depth + 1);
  }
}

function assignedName(node: Node): string {
  return node.childForFieldName("name")?.text ?? node.text.split("=")[0] ?? "";
}

/** The text the shell makes of a word, when it is fixed; undefined when the shell computes it. */
function literalText(node: Node): string | undefined {
  switch (node.type) {
    case "command_name":
      return joinLiteral(node.namedChildren);
    case "word":
      return unescape(node.text);
    case "number":
    case "variable_name":
    case "string_content":
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      return joinLiteral(node.namedChildren);
    case "concatenation":
      return joinLiteral(node.namedChildren);
    default:
      return undefined;
  }
}

function joinLiteral(nodes: (Node | null)[]): string | undefined {
  let text = "";
  for (const node of nodes) {
    const part = node ? literalText(node) : undefined;
    if (part === undefined) return undefined;
    text += part;
  }
  return text;
}

/** Backslash escapes of an unquoted word: `g\it` is `git`. */
function unescape(text: string): string {
  return text.replace(/\\(.)/gs, "$1");
}
