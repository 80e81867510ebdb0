/**
 * A mistyped subcommand (`keel instal ./foo`) would otherwise become a prompt and start a model run: a first
 * word one edit from a subcommand is answered with "did you mean install?" instead, and asks nothing first.
 */
import type { Command } from "commander";

/**
 * The one of `names` that `word` is a single edit from (a letter added, dropped or changed, or two neighbours
 * swapped); undefined for an exact name, a short word, or one with a space (a quoted prompt).
 */
export function nearName(word: string, names: readonly string[]): string | undefined {
  if (word.length < 3 || /\s/.test(word) || names.includes(word)) return undefined;
  return names.find((name) => oneEditApart(word, name));
}

/** The "did you mean" message when the prompt's first word nearly names a subcommand; undefined otherwise. */
export function nearMiss(words: readonly string[], program: Command, command: string): string | undefined {
  const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  const near = words[0] === undefined ? undefined : nearName(words[0], names);
  if (!near) return undefined;
  return (
    `${command}: "${words[0]}" is not a command; did you mean ${near}? (\`${command} --help\` lists them.) ` +
    `To send it to the model, quote the whole prompt: ${command} ${JSON.stringify(words.join(" "))}\n`
  );
}

function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    const swapped = a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    return swapped || a.slice(i + 1) === b.slice(i + 1);
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.slice(i) === long.slice(i + 1);
}
