/**
 * Glob patterns for `find` and `grep`, with one meaning on every backend: a pattern without `/` matches a
 * file's name at any depth (`*.ts`); one with `/` matches the path relative to the searched folder
 * (`src/**\/*.ts`). Hidden files match like any other.
 */
import picomatch from "picomatch";

export type PathTest = (relativePath: string) => boolean;

export function globMatcher(pattern: string): PathTest {
  const glob = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  const test = picomatch(glob, { dot: true });
  if (glob.includes("/")) return test;
  return (relativePath) => test(relativePath.slice(relativePath.lastIndexOf("/") + 1));
}

/**
 * Whether ripgrep's own `--glob` may pre-filter for `pattern`: only when its glob syntax agrees with
 * picomatch's (no extglobs, negation or escapes). The picomatch test still decides every result.
 */
export function ripgrepCanPrefilter(pattern: string): boolean {
  return !/[()!\\]/.test(pattern);
}
