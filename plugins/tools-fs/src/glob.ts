/**
 * Glob patterns for `find` and `grep`, with one meaning on every backend: a pattern without `/` matches a
 * file's name at any depth (`*.ts`); one with `/` matches the path relative to the searched folder
 * (`src/**\/*.ts`). Hidden files match like any other.
 */
import { createRequire } from "node:module";
import type Picomatch from "picomatch";

// Required on the first search, not at startup.
let picomatchModule: typeof Picomatch | undefined;
const picomatch = (...args: Parameters<typeof Picomatch>) =>
  (picomatchModule ??= createRequire(import.meta.url)("picomatch") as typeof Picomatch)(...args);

export type PathTest = (relativePath: string) => boolean;

export function globMatcher(pattern: string): PathTest {
  const glob = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  const test = picomatch(glob, { dot: true });
  if (glob.includes("/")) return (relativePath) => test(relativePath);
  return (relativePath) => test(relativePath.slice(relativePath.lastIndexOf("/") + 1));
}

/** Glob syntax in a path segment; a segment without it names a folder literally. */
const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/;

/** The characters a name matching `name` (a glob without `/`) may end with: of each final `{a,b}` choice. */
function lastCharacters(name: string): (string | undefined)[] {
  const choice = /\{([^{}]*)\}$/.exec(name);
  if (!choice) return [name.at(-1)];
  return choice[1]!
    .split(",")
    .map((alternative) => (alternative === "" ? name.at(choice.index - 1) : alternative.at(-1)));
}

/**
 * ripgrep flags that narrow its listing to files whose *name* could match `pattern`, so it reads fewer files;
 * none when that cannot be said safely. A `--glob` would be simpler but overrides .gitignore in ripgrep, so
 * this defines a file type instead, which matches names only and leaves ignore rules alone. The picomatch
 * test still decides every result. A file type never matches a name ending in `.` (`...`, `notes.`), so
 * the filter is used only when the pattern's name ends in a literal character other than `.`.
 */
export function ripgrepNameFilter(pattern: string): string[] {
  const glob = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  const slash = glob.lastIndexOf("/");
  const name = glob.slice(slash + 1);
  const braceSpansFolders = glob.indexOf("{") !== -1 && glob.indexOf("{") < slash;
  const mayEndInDot = lastCharacters(name).some((last) => last === undefined || last === "." || GLOB_SYNTAX.test(last));
  // Extglobs, negation, escapes and `:` (the type syntax's separator) read differently in ripgrep; skip them.
  if (mayEndInDot || name.includes("**") || braceSpansFolders || /[()!\\:]/.test(glob)) return [];
  return ["--type-add", `keelglob:${name}`, "--type", "keelglob"];
}

/**
 * The folders a glob starts with literally (`src/lib` for `src/lib/**\/*.ts`, `` for `*.ts`), which a search
 * can start in instead of walking everything: no other path can match.
 */
export function literalFolder(pattern: string): string {
  const segments = (pattern.startsWith("./") ? pattern.slice(2) : pattern).split("/");
  segments.pop(); // the last segment names files, not a folder to start in
  const literal: string[] = [];
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === ".." || GLOB_SYNTAX.test(segment)) break;
    literal.push(segment);
  }
  return literal.join("/");
}
