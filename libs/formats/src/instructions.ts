/**
 * Instruction files with imports, as Claude Code reads `CLAUDE.md`: a `@path` (relative to the file, or `~/`
 * from the home folder) that names a file brings that file in after the one importing it, and its own imports
 * after it, at most five levels deep; each file once. `@` inside code spans and fenced blocks is an example,
 * not an import, and a `@name` that names no file stays text.
 */
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileReferences } from "./expand.ts";

const MAX_DEPTH = 5;

export interface InstructionPart {
  path: string;
  text: string;
  /** The file whose `@` import brought it in; undefined for the file itself. */
  importedBy?: string;
}

/** `read` returns a file's text, or undefined when it is not a readable file. */
export function withImports(
  path: string,
  text: string,
  read: (path: string) => string | undefined,
  seen: Set<string> = new Set([path]),
  depth = 0,
): InstructionPart[] {
  const parts: InstructionPart[] = [{ path, text }];
  if (depth >= MAX_DEPTH) return parts;
  for (const reference of fileReferences(text)) {
    const target = reference.startsWith("~/") ? join(homedir(), reference.slice(2)) : resolve(dirname(path), reference);
    if (seen.has(target)) continue;
    const imported = read(target);
    if (imported === undefined) continue;
    seen.add(target);
    const [first, ...rest] = withImports(target, imported, read, seen, depth + 1);
    parts.push({ ...first!, importedBy: path }, ...rest);
  }
  return parts;
}
