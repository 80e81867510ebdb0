/**
 * The Markdown files of a folder and its subfolders, with their path relative to it, in a stable order. Folders
 * that are never content (`node_modules`, dot folders) are not entered, and the walk stops at a fixed depth so
 * a link loop or a vendored tree cannot make a start slow.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";

const MAX_DEPTH = 4;

export interface MarkdownFile {
  path: string;
  /** Relative to the folder walked, with `/` between parts, without `.md`. */
  stem: string;
}

export function markdownFiles(dir: string, depth = 0, prefix = "", extensions = [".md"]): MarkdownFile[] {
  // A manifest may name one file rather than a folder (a plugin's `commands: ["./extra/deploy.md"]`).
  const own = depth === 0 ? extensions.find((ext) => dir.endsWith(ext)) : undefined;
  if (own && statSync(dir, { throwIfNoEntry: false })?.isFile())
    return [{ path: dir, stem: basename(dir).slice(0, -own.length) }];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  } catch {
    return []; // No such folder: the usual case.
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory() || entry.isSymbolicLink()) {
      if (depth >= MAX_DEPTH || entry.name.startsWith(".") || entry.name === "node_modules") return [];
      const inner = markdownFiles(path, depth + 1, `${prefix}${entry.name}/`, extensions);
      if (inner.length > 0 || entry.isDirectory()) return inner;
    }
    const ext = extensions.find((e) => entry.name.endsWith(e));
    return ext ? [{ path, stem: `${prefix}${entry.name.slice(0, -ext.length)}` }] : [];
  });
}
