/**
 * Where in a file some text the model quoted most likely was: the line most like the quote's first line
 * (by shared character pairs), shown with its neighbours so the model can copy the real text.
 */

export interface NearestLines {
  /** 1-based line where the closest match starts. */
  line: number;
  rows: { number: number; text: string }[];
}

/** The 1-based number and the text of the line holding character index `at`. */
export function lineAt(text: string, at: number): { number: number; text: string } {
  let number = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) number++;
  const start = text.lastIndexOf("\n", at - 1) + 1;
  const end = text.indexOf("\n", at);
  return { number, text: text.slice(start, end === -1 ? text.length : end) };
}

function pairs(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    out.set(pair, (out.get(pair) ?? 0) + 1);
  }
  return out;
}

/** Dice coefficient over character pairs: 1 for equal strings, 0 for nothing in common. */
function similarity(a: Map<string, number>, aSize: number, b: string): number {
  if (aSize === 0 || b.length < 2) return 0;
  let shared = 0;
  const seen = new Map<string, number>();
  for (let i = 0; i < b.length - 1; i++) {
    const pair = b.slice(i, i + 2);
    const used = seen.get(pair) ?? 0;
    if (used < (a.get(pair) ?? 0)) {
      shared++;
      seen.set(pair, used + 1);
    }
  }
  return (2 * shared) / (aSize + b.length - 1);
}

/** Longest line compared; longer ones are compared by their start, which keeps a minified file cheap. */
const COMPARE_CHARS = 300;
/** Below this, nothing in the file is like the quote and showing "nearest" lines would mislead. */
const MIN_SIMILARITY = 0.3;

export function closestLines(text: string, quote: string, shownLines?: number): NearestLines | undefined {
  const quoteLines = quote.split("\n");
  const anchor = (quoteLines.find((line) => line.trim().length > 0) ?? "").trim().slice(0, COMPARE_CHARS);
  const anchorIndex = Math.max(
    0,
    quoteLines.findIndex((line) => line.trim().length > 0),
  );
  if (anchor.length < 2) return undefined;
  const anchorPairs = pairs(anchor);
  const lines = text.split("\n");
  let best = -1;
  let bestScore = 0;
  lines.forEach((line, i) => {
    const score = similarity(anchorPairs, anchor.length - 1, line.trim().slice(0, COMPARE_CHARS));
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  if (best === -1 || bestScore < MIN_SIMILARITY) return undefined;
  const count = Math.min(shownLines ?? quoteLines.length + 2, 12);
  const first = Math.max(0, best - anchorIndex - 1);
  const rows = lines.slice(first, first + count).map((line, i) => ({ number: first + i + 1, text: line }));
  return { line: best + 1, rows };
}
