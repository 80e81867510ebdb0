/**
 * Truncation for tool output: keep the head (file reads) or the tail (command output) within a line and
 * byte budget, and say exactly what was cut so the model can ask for the rest. The one truncation helper
 * every tool uses.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

export interface Truncation {
  /** The kept text. */
  text: string;
  truncated: boolean;
  /** Which budget cut it. */
  truncatedBy?: "lines" | "bytes";
  totalLines: number;
  totalBytes: number;
  /** Whole lines kept. */
  keptLines: number;
  keptBytes: number;
  /** A single line was longer than the byte budget and was cut inside. */
  lineCut: boolean;
}

export interface TruncateOptions {
  maxLines?: number;
  maxBytes?: number;
}

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).length;

/** Cuts a string to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function cutToBytes(text: string, maxBytes: number, from: "start" | "end" = "start"): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  if (from === "start") {
    let end = maxBytes;
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
    return new TextDecoder().decode(bytes.subarray(0, end));
  }
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return new TextDecoder().decode(bytes.subarray(start));
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Keeps whole lines from one end of `text` within the budget; a single over-long line is cut inside. */
function truncate(text: string, options: TruncateOptions, from: "start" | "end"): Truncation {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const lines = splitLines(text);
  const totalBytes = byteLength(text);
  const base = { totalLines: lines.length, totalBytes };
  if (lines.length <= maxLines && totalBytes <= maxBytes) {
    return { ...base, text, truncated: false, keptLines: lines.length, keptBytes: totalBytes, lineCut: false };
  }
  const ordered = from === "start" ? lines : [...lines].reverse();
  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  for (const line of ordered) {
    if (kept.length >= maxLines) break;
    const size = byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    kept.push(line);
    bytes += size;
  }
  if (kept.length === 0 && lines.length > 0) {
    const cut = cutToBytes(ordered[0]!, maxBytes, from);
    return {
      ...base,
      text: cut,
      truncated: true,
      truncatedBy: "bytes",
      keptLines: 0,
      keptBytes: byteLength(cut),
      lineCut: true,
    };
  }
  if (from === "end") kept.reverse();
  return {
    ...base,
    text: kept.join("\n"),
    truncated: true,
    truncatedBy,
    keptLines: kept.length,
    keptBytes: bytes,
    lineCut: false,
  };
}

/** Keeps the first lines of `text` within the budget (file reads). */
export function truncateHead(text: string, options: TruncateOptions = {}): Truncation {
  return truncate(text, options, "start");
}

/** Keeps the last lines of `text` within the budget (command output). */
export function truncateTail(text: string, options: TruncateOptions = {}): Truncation {
  return truncate(text, options, "end");
}

/** Human size for notes: `50.0 KB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
