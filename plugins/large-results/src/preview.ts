/**
 * What the model sees instead of a large result: how big it was, its handle with the calls that read it, and
 * the first and last lines.
 */
import { formatBytes, truncateHead, truncateTail } from "@keel/extensions-api/truncate";
import { linesOf } from "./store.ts";

export interface PreviewOptions {
  /** Lines and bytes of the head, and again of the tail. */
  lines: number;
  bytes: number;
}

export function previewText(text: string, handle: string, options: PreviewOptions): string {
  const lines = linesOf(text);
  const total = lines.length;
  const size = formatBytes(Buffer.byteLength(text));
  const head = truncateHead(text, { maxLines: options.lines, maxBytes: options.bytes });
  const tailStart = Math.max(head.keptLines, total - options.lines);
  const tail = truncateTail(lines.slice(tailStart).join("\n"), { maxLines: options.lines, maxBytes: options.bytes });
  const out = [
    `[This result is ${size} (${total} lines), too large to show whole. It is stored as ` +
      `"${handle}": read any lines with read_result({ "handle": "${handle}", "offset": 1, "limit": ` +
      `200 }), or search it with read_result({ "handle": "${handle}", "grep": "pattern" }).]`,
    "",
    head.lineCut ? `--- first ${formatBytes(head.keptBytes)} of line 1 ---` : `--- lines 1-${head.keptLines} ---`,
    head.text,
  ];
  if (tail.lineCut) {
    out.push(`--- last ${formatBytes(tail.keptBytes)} of line ${total} ---`, tail.text);
  } else if (tail.keptLines > 0) {
    const from = total - tail.keptLines + 1;
    const omitted = from - 1 - head.keptLines;
    if (omitted > 0) out.push(`--- ${omitted} lines omitted ---`);
    out.push(`--- lines ${from}-${total} ---`, tail.text);
  }
  return out.join("\n");
}
