/**
 * The commonest bash line — one command of plain words (`npm test`, `ls -la src`, `git status`) — read without
 * the bash grammar. Loading tree-sitter's WebAssembly build costs ~30 ms and ~35 MB of memory that the process
 * then carries on every later fork, so a line with nothing for the shell to interpret (no quotes, escapes,
 * expansions, operators, redirections, comments or keywords) is split on spaces here; anything else, and any
 * command whose words the parser treats specially (assignments, declarations, shells and `eval` that run their
 * arguments), goes to the parser. The result is what `parseShell` gives for the same line (tested side by side).
 */
import type { ParsedShell } from "./shell.ts";

/** Characters that mean nothing to bash outside a word's first position (`=` makes a first word an assignment). */
const PLAIN = /^[A-Za-z0-9_./:=@%+,-]+( +[A-Za-z0-9_./:=@%+,-]+)*$/;
/** First words the grammar reads as syntax, declarations, or commands that run their arguments as a script. */
const SPECIAL = new Set([
  ...["if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do", "done"],
  ...["function", "time", "coproc", "in"],
  ...["export", "declare", "typeset", "local", "readonly", "unset"],
  ...["eval", "bash", "sh", "zsh", "dash", "ksh"],
]);

/** The parse of `line` when it is one command of plain words; undefined when it needs the grammar. */
export function plainCommand(line: string): ParsedShell | undefined {
  const source = line.trim();
  if (!PLAIN.test(source)) return undefined;
  const words = source.split(/ +/);
  if (SPECIAL.has(words[0]!) || words[0]!.includes("=")) return undefined;
  return {
    commands: [{ words, literal: words.map(() => true), assigns: [], nested: false, source }],
    redirects: [],
    substitution: false,
    parseError: false,
  };
}
