/**
 * The part of a command's output the model is shown: the tail within the shared budget (2000 lines / 50 KB,
 * via `truncateTail`), and a note saying what was cut and where the rest is.
 */
import { formatBytes, truncateTail } from "@keel/extensions-api/truncate";
import { displayText } from "./display-text.ts";

export interface ShownOutput {
  text: string;
  truncated: boolean;
  /** Says what was left out and where to find it; absent when nothing was. */
  note?: string;
}

export interface OutputTotals {
  /** Bytes and lines of everything the command printed (not just `bytes`). */
  totalBytes: number;
  totalLines: number;
  /** Where the full output is, for the note. */
  fullOutputPath?: string;
}

/** Shows the tail of `bytes`, the most recent output; `cutAtStart` when older output came before them. */
export function showTail(bytes: Uint8Array, cutAtStart: boolean, totals: OutputTotals): ShownOutput {
  const kept = truncateTail(displayText(bytes, cutAtStart));
  const truncated = kept.truncated || cutAtStart;
  if (!truncated) return { text: kept.text, truncated: false };
  const where = totals.fullOutputPath ? ` Full output: ${totals.fullOutputPath}` : "";
  const size = formatBytes(totals.totalBytes);
  if (kept.lineCut) {
    return {
      text: kept.text,
      truncated,
      note:
        `[Output truncated: the last line alone is longer than the limit; showing its ` +
        `final ${formatBytes(kept.keptBytes)} (${size} in all).${where}]`,
    };
  }
  const from = Math.max(1, totals.totalLines - kept.keptLines + 1);
  return {
    text: kept.text,
    truncated,
    note:
      `[Output truncated: showing lines ${from}-${totals.totalLines} of ${totals.totalLines} ` +
      `(${formatBytes(kept.keptBytes)} of ${size}).${where}]`,
  };
}
