/**
 * Grep results as both search routes produce them (matching lines with their context, per file) and how they
 * are shown: `path:line: text` for matches, `path-line- text` for context, `--` between separate stretches,
 * long lines cut, at most `limit` matching lines.
 */
import { GREP_MAX_LINE_CHARS } from "./declarations.ts";

export interface Hit {
  /** 1-based. */
  line: number;
  text: string;
  match: boolean;
}

export interface FileHits {
  /** As shown to the model. */
  path: string;
  /** Sorted by line, each line once. */
  hits: Hit[];
}

export interface FormattedHits {
  text: string;
  matches: number;
  /** More matching lines exist than were shown. */
  limitReached: boolean;
  linesCut: boolean;
}

/** Splits text into lines the way ripgrep with `--crlf` sees them. */
export function textLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The matching lines of one file and `context` lines around each, stopping after `maxMatches` matches.
 * Used by the fallback route; ripgrep does the same with `--max-count` and `--context`.
 */
export function searchLines(lines: string[], regex: RegExp, context: number, maxMatches: number): Hit[] {
  const matched: number[] = [];
  for (let i = 0; i < lines.length && matched.length < maxMatches; i++) if (regex.test(lines[i]!)) matched.push(i);
  const wanted = new Map<number, boolean>();
  for (const index of matched) {
    for (let i = Math.max(0, index - context); i <= Math.min(lines.length - 1, index + context); i++)
      if (!wanted.has(i)) wanted.set(i, false);
    wanted.set(index, true);
  }
  return [...wanted.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([i, match]) => ({ line: i + 1, text: lines[i]!, match }));
}

function cutLine(text: string): { text: string; cut: boolean } {
  if (text.length <= GREP_MAX_LINE_CHARS) return { text, cut: false };
  return { text: `${text.slice(0, GREP_MAX_LINE_CHARS)}… [line cut at ${GREP_MAX_LINE_CHARS} characters]`, cut: true };
}

/** Shows `files` (already in path order) with at most `limit` matching lines. */
export function formatHits(files: FileHits[], limit: number, context: number): FormattedHits {
  const out: string[] = [];
  let matches = 0;
  let limitReached = false;
  let linesCut = false;
  for (const file of files) {
    if (limitReached) break;
    // Lines to keep in this file: up to the last allowed match plus its trailing context, but not as far as
    // the first match past the limit.
    let keepUntil = Infinity;
    let lastAllowed = 0;
    let seen = 0;
    for (const hit of file.hits) {
      if (!hit.match) continue;
      if (matches + seen === limit) {
        limitReached = true;
        keepUntil = Math.min(lastAllowed + context, hit.line - 1);
        break;
      }
      seen++;
      lastAllowed = hit.line;
    }
    if (seen === 0) break;
    if (context > 0 && out.length > 0) out.push("--");
    let previous = -1;
    for (const hit of file.hits) {
      if (hit.line > keepUntil) break;
      if (context > 0 && previous !== -1 && hit.line > previous + 1) out.push("--");
      const { text, cut } = cutLine(hit.text);
      linesCut ||= cut;
      out.push(hit.match ? `${file.path}:${hit.line}: ${text}` : `${file.path}-${hit.line}- ${text}`);
      previous = hit.line;
    }
    matches += seen;
  }
  return { text: out.join("\n"), matches, limitReached, linesCut };
}
