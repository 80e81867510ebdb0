/**
 * A unified diff of one file's change, made with the `diff` package. Only the changed stretch (plus context)
 * is handed to it, with hunk line numbers shifted back, so editing one line of a 10 MB file costs a diff of
 * a few lines.
 */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";

const CONTEXT_LINES = 3;

export interface FileDiff {
  /** The unified diff, `---`/`+++` headers included. */
  text: string;
  /** 1-based first line that changed in the new text. */
  firstChangedLine: number;
  added: number;
  removed: number;
}

/** Lines `from`..`to` of `lines` (split on `\n`) as text, with the break after the last one kept if it was there. */
function slice(lines: string[], from: number, to: number): string {
  const part = lines.slice(from, to).join("\n");
  return to < lines.length ? `${part}\n` : part;
}

export function unifiedDiff(path: string, before: string, after: string): FileDiff {
  const a = before.split("\n");
  const b = after.split("\n");
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;

  const from = Math.max(0, prefix - CONTEXT_LINES);
  const keepAfter = Math.max(0, suffix - CONTEXT_LINES);
  const patch = structuredPatch(path, path, slice(a, from, a.length - keepAfter), slice(b, from, b.length - keepAfter), undefined, undefined, { context: CONTEXT_LINES });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    hunk.oldStart += from;
    hunk.newStart += from;
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  return { text: formatPatch(patch, FILE_HEADERS_ONLY), firstChangedLine: prefix + 1, added, removed };
}
