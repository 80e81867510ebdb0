/**
 * The pure part of `edit`: find each `oldText` exactly once in the original text, check the edits do not
 * overlap, and apply them all at once. When anything is wrong nothing is applied and the error lists every
 * problem, with the count of matches and the nearest lines, so the model can fix all of them in one retry.
 */
import { closestLines, lineAt } from "./nearest-lines.ts";

export interface TextEdit {
  oldText: string;
  newText: string;
}

export class EditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditError";
  }
}

/** Every start index of `needle` in `haystack`, overlapping ones included (they make a match ambiguous too). */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** True when every line break is CRLF, so the file should be matched and written back with CRLF. */
function usesCrlf(text: string): boolean {
  return text.includes("\r\n") && !/(^|[^\r])\n/.test(text);
}

function quoteLine(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

function missMessage(label: string, path: string, text: string, oldText: string): string {
  const lines = [`${label}.oldText was not found in ${path} (0 matches).`];
  const squash = (s: string) => s.replace(/\s+/g, " ").trim();
  if (squash(oldText).length > 0 && squash(text).includes(squash(oldText))) {
    lines.push("It would match if whitespace were ignored: copy the exact indentation and line breaks from the file.");
  }
  const near = closestLines(text, oldText);
  if (near) {
    lines.push(`The nearest text is at line ${near.line}:`);
    for (const row of near.rows) lines.push(`  ${row.number} | ${quoteLine(row.text)}`);
  }
  return lines.join("\n");
}

function ambiguousMessage(label: string, path: string, text: string, starts: number[]): string {
  const shown = starts.slice(0, 10).map((start) => {
    const { number, text: line } = lineAt(text, start);
    return `  line ${number}: ${quoteLine(line.trim())}`;
  });
  const more = starts.length > shown.length ? [`  … and ${starts.length - shown.length} more`] : [];
  return [
    `${label}.oldText matches ${starts.length} times in ${path}; it must match exactly once:`,
    ...shown,
    ...more,
    "Add surrounding lines to oldText so that it matches one place only.",
  ].join("\n");
}

/**
 * Applies `edits` to `original` (the text of `path`). Returns the new text; throws `EditError` naming every
 * edit that does not match exactly once, overlaps another, or changes nothing.
 */
export function applyEdits(original: string, edits: readonly TextEdit[], path: string): string {
  const crlf = usesCrlf(original);
  const toLf = (s: string) => (crlf ? s.replaceAll("\r\n", "\n") : s);
  const text = toLf(original);
  const problems: string[] = [];
  const spans: { index: number; start: number; end: number; newText: string }[] = [];

  for (const [index, edit] of edits.entries()) {
    const label = edits.length === 1 ? "edit" : `edits[${index}]`;
    const oldText = toLf(edit.oldText);
    const newText = toLf(edit.newText);
    let problem: string | undefined;
    const starts = oldText.length > 0 ? occurrences(text, oldText) : [];
    if (oldText.length === 0)
      problem =
        `${label}.oldText is empty; it must quote text that is in ${path}. To create or ` +
        `replace a whole file, use write.`;
    else if (oldText === newText) problem = `${label} changes nothing: oldText and newText are the same.`;
    else if (starts.length === 0) problem = missMessage(label, path, text, oldText);
    else if (starts.length > 1) problem = ambiguousMessage(label, path, text, starts);
    if (problem) problems.push(problem);
    else spans.push({ index, start: starts[0]!, end: starts[0]! + oldText.length, newText });
  }

  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++) {
    const [before, after] = [spans[i - 1]!, spans[i]!];
    if (after.start < before.end) {
      const line = lineAt(text, after.start).number;
      problems.push(
        `edits[${before.index}] and edits[${after.index}] overlap (both change text at ` +
          `line ${line}); merge them into one edit.`,
      );
    }
  }
  if (problems.length > 0) throw new EditError(`No edits were applied to ${path}.\n${problems.join("\n\n")}`);

  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + span.newText;
    at = span.end;
  }
  out += text.slice(at);
  return crlf ? out.replaceAll("\n", "\r\n") : out;
}
