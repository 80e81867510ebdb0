/**
 * Quoting for the remote login shell, which reads every exec request: each word in single quotes, a single
 * quote inside as `'\''` (sh, bash, dash, ksh and zsh all read it so).
 */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
