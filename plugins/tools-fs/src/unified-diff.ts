/**
 * A unified diff of one file's change, made with the `diff` package. Only the changed stretch (plus context)
 * is handed to it, with hunk line numbers shifted back, so editing one line of a 10 MB file costs a diff of
 * a few lines rather than of 150,000.
 */
// Loaded on the first edit, not at startup: the package is ~30 ms of module loading a read-only session never needs.
let diffModule: Promise<typeof import("diff")> | undefined;

const CONTEXT_LINES = 3;

export interface FileDiff {
  /** The unified diff, `---`/`+++` headers included. */
  text: string;
  /** 1-based first line that changed in the new text. */
  firstChangedLine: number;
  added: number;
  removed: number;
}

/** Index just after the `count`-th newline before `at`, walking back (0 when there are fewer). */
function backLines(text: string, at: number, count: number): number {
  let position = at;
  for (let i = 0; i <= count; i++) {
    const newline = text.lastIndexOf("\n", position - 1);
    if (newline === -1) return 0;
    position = newline;
  }
  return position + 1;
}

/** Index just after the `count`-th newline from `at` on (the text's length when there are fewer). */
function forwardLines(text: string, at: number, count: number): number {
  let position = at;
  for (let i = 0; i < count; i++) {
    const newline = text.indexOf("\n", position);
    if (newline === -1) return text.length;
    position = newline + 1;
  }
  return position;
}

function countLines(text: string, end: number): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

export async function unifiedDiff(path: string, before: string, after: string): Promise<FileDiff> {
  const { FILE_HEADERS_ONLY, formatPatch, structuredPatch } = await (diffModule ??= import("diff"));
  // The first and last characters that differ, then whole lines around them plus the context.
  const shorter = Math.min(before.length, after.length);
  let head = 0;
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  let tail = 0;
  while (
    tail < shorter - head &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  )
    tail++;

  const from = backLines(before, head, CONTEXT_LINES);
  const beforeEnd = forwardLines(before, before.length - tail, CONTEXT_LINES + 1);
  const afterEnd = forwardLines(after, after.length - tail, CONTEXT_LINES + 1);
  const skippedLines = countLines(before, from);
  const patch = structuredPatch(
    path,
    path,
    before.slice(from, beforeEnd),
    after.slice(from, afterEnd),
    undefined,
    undefined,
    { context: CONTEXT_LINES },
  );
  let added = 0;
  let removed = 0;
  let firstChangedLine = skippedLines + 1;
  for (const [index, hunk] of patch.hunks.entries()) {
    hunk.oldStart += skippedLines;
    hunk.newStart += skippedLines;
    if (index === 0) firstChangedLine = hunk.newStart + hunk.lines.findIndex((line) => !line.startsWith(" "));
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  return { text: formatPatch(patch, FILE_HEADERS_ONLY), firstChangedLine, added, removed };
}
