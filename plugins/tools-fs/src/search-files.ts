/**
 * The files a search covers, sorted by path so results are the same on every backend and every run: from
 * ripgrep's file listing when it can run (each file confirmed through the backend, ./confirm.ts), else from
 * the fallback walker. A glob narrows them with picomatch on both routes.
 */
import type { Operations } from "@keel/extensions-api";
import { posix } from "node:path";
import { confirmListed } from "./confirm.ts";
import { globMatcher, literalFolder, ripgrepNameFilter } from "./glob.ts";
import { pathKind } from "./paths.ts";
import { COMMON_FLAGS, type Ripgrep } from "./ripgrep.ts";
import { listFiles } from "./walk.ts";

/**
 * The order results come in on every route: ripgrep's `--sort path`, which walks each folder's entries sorted
 * by name, so `a/z.txt` comes before `a.txt` (the folder `a` sorts before the name `a.txt`). That is string
 * order with `/` below every other character.
 */
export function byPath(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return (x === 47 ? -1 : x) - (y === 47 ? -1 : y);
  }
  return a.length - b.length;
}

/** Splits ripgrep's NUL-separated path list, dropping the `./` it puts before paths under `.`. */
export function splitPaths(output: Buffer): string[] {
  return output
    .toString("utf8")
    .split("\0")
    .filter((path) => path.length > 0)
    .map((path) => (path.startsWith("./") ? path.slice(2) : path));
}

/**
 * Folder-relative paths of the files under `folder` that `glob` (if any) matches, sorted. A glob starting
 * with literal folders (`src/lib/**\/*.ts`) only walks those, and like a folder named as the path they are
 * searched even when .gitignore ignores them: the model asked for them by name.
 */
export async function filesUnder(
  ops: Operations,
  ripgrep: Ripgrep,
  folder: string,
  glob: string | undefined,
  signal: AbortSignal,
): Promise<string[]> {
  const prefix = glob ? literalFolder(glob) : "";
  const start = prefix === "" ? folder : posix.join(folder, prefix);
  if (prefix !== "" && (await pathKind(ops, start)) !== "directory") return [];
  let files: string[] | undefined;
  if (await ripgrep.usable(ops)) {
    const nameFilter = glob ? ripgrepNameFilter(glob) : [];
    const run = await ripgrep.run(ops, start, ["--files", "--null", ...COMMON_FLAGS, ...nameFilter, "."], signal);
    // Code 2 with a listing means some folders could not be read; the rest is still right.
    if (run && (run.code !== 2 || run.output.length > 0))
      files = await confirmListed(ops, start, splitPaths(run.output));
  }
  files ??= await listFiles(ops, start, signal);
  if (prefix !== "") files = files.map((file) => `${prefix}/${file}`);
  if (glob) {
    const matches = globMatcher(glob);
    files = files.filter((file) => matches(file));
  }
  return files.sort(byPath);
}
