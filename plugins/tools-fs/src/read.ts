/**
 * `read`: a file's text from a line onward, within 2000 lines or 50 KB, saying where to continue; images as
 * image content; other binary files refused. A file that is not valid UTF-8 is shown with U+FFFD for its bad
 * bytes and a note saying so, so the model knows the text it sees is not the file's bytes.
 */
import { defineTool } from "@keel/extensions-api";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatBytes, truncateHead } from "@keel/extensions-api/truncate";
import type { ToolResult } from "@keel/extensions-api";
import { decodeText, imageMimeType, isValidUtf8, looksBinary, notUtf8Note } from "./content-kind.ts";
import { displayPath, withFsErrors } from "./paths.ts";
import { readDeclaration } from "./declarations.ts";

/** Larger images are refused: providers reject them (Anthropic's cap is 5 MB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface ReadDetails {
  path: string;
  /** Lines of the file, and the 1-based range shown. */
  totalLines?: number;
  firstLine?: number;
  lastLine?: number;
  truncated: boolean;
  mimeType?: string;
  /** False when the file is not valid UTF-8 (its bad bytes were shown as U+FFFD). */
  utf8?: boolean;
}

function imageResult(path: string, bytes: Uint8Array, mimeType: string): ToolResult<ReadDetails> {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new Error(
      `${path} is a ${mimeType} image of ${formatBytes(bytes.length)}; images ` +
        `over ${formatBytes(MAX_IMAGE_BYTES)} cannot be sent to the model. Make a smaller copy and read that.`,
    );
  }
  return {
    content: [
      { type: "text", text: `Image ${path} (${mimeType}, ${formatBytes(bytes.length)})` },
      { type: "image", data: Buffer.from(bytes).toString("base64"), mimeType },
    ],
    details: { path, truncated: false, mimeType },
  };
}

/**
 * Byte offsets where each line starts, found without decoding: a newline byte never occurs inside a multi-byte
 * UTF-8 character, so a page of a 10 MB file is decoded alone instead of the whole file.
 */
function lineStarts(bytes: Uint8Array): number[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const starts = [0];
  for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) starts.push(at + 1);
  // A final newline ends the last line rather than starting an empty one.
  if (starts.length > 1 && starts[starts.length - 1] === bytes.length) starts.pop();
  return starts;
}

/**
 * The text of lines `from`..`to` (0-based, exclusive), without the last line's newline, decoding at most
 * `maxBytes` bytes: the caller truncates to fewer anyway, and a 100 MB line need not be decoded to show 50 KB.
 */
function decodeLines(bytes: Uint8Array, starts: number[], from: number, to: number, maxBytes: number): string {
  const end = to < starts.length ? starts[to]! - 1 : bytes.length;
  const begin = starts[from]!;
  const text = decodeText(bytes.subarray(begin, Math.min(Math.max(begin, end), begin + maxBytes)));
  return to >= starts.length && end - begin <= maxBytes && text.endsWith("\n") ? text.slice(0, -1) : text;
}

export function textResult(
  path: string,
  bytes: Uint8Array,
  offset: number | undefined,
  limit: number | undefined,
): { content: string; details: ReadDetails } {
  if (bytes.length === 0) return { content: `[${path} is empty]`, details: { path, totalLines: 0, truncated: false } };
  const starts = lineStarts(bytes);
  const total = starts.length;
  const start = (offset ?? 1) - 1;
  if (start >= total) {
    throw new Error(
      `offset ${offset} is past the end of ${path}, which has ${total} ` +
        `line${total === 1 ? "" : "s"}. Use an offset from 1 to ${total}.`,
    );
  }
  const end = limit === undefined ? total : Math.min(start + limit, total);
  // Decode just past the caps (a line or a few bytes more), so truncateHead still sees that there is more.
  const text = decodeLines(bytes, starts, start, Math.min(end, start + DEFAULT_MAX_LINES + 1), DEFAULT_MAX_BYTES + 8);
  const cut = truncateHead(text, { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
  const details: ReadDetails = {
    path,
    totalLines: total,
    firstLine: start + 1,
    lastLine: end,
    truncated: cut.truncated,
  };

  if (cut.lineCut) {
    const lineBytes = (start + 1 < total ? starts[start + 1]! - 1 : bytes.length) - starts[start]!;
    const next = start + 2 <= total ? ` Use offset=${start + 2} to continue after it.` : "";
    const note =
      `[Line ${start + 1} is ${formatBytes(lineBytes)}, over ` +
      `the ${formatBytes(DEFAULT_MAX_BYTES)} limit; only its start is shown. Use grep to find text inside it.${next}]`;
    return { content: `${cut.text}\n\n${note}`, details: { ...details, lastLine: start + 1 } };
  }
  if (cut.truncated) {
    const last = start + cut.keptLines;
    const why = cut.truncatedBy === "bytes" ? ` (${formatBytes(DEFAULT_MAX_BYTES)} limit)` : "";
    return {
      content:
        `${cut.text}\n\n[Showing lines ${start + 1}-${last} of ${total}${why}. Use ` +
        `offset=${last + 1} to continue.]`,
      details: { ...details, lastLine: last },
    };
  }
  if (end < total)
    return {
      content: `${cut.text}\n\n[Showing lines ${start + 1}-${end} of ${total}. Use offset=${end + 1} to continue.]`,
      details,
    };
  return { content: cut.text, details };
}

export const readTool = defineTool({
  ...readDeclaration,
  async execute(input, ctx) {
    const path = displayPath(ctx.ops.cwd, input.path);
    const bytes = await withFsErrors(path, () => ctx.ops.readFile(input.path));
    const mimeType = imageMimeType(bytes);
    if (mimeType) return imageResult(path, bytes, mimeType);
    if (looksBinary(bytes)) {
      throw new Error(
        `${path} is a binary file (${formatBytes(bytes.length)}); read shows text files and png, ` +
          `jpeg, gif or webp images only.`,
      );
    }
    const result = textResult(path, bytes, input.offset, input.limit);
    if (isValidUtf8(bytes)) return result;
    return { content: `${result.content}\n\n[${notUtf8Note(path)}]`, details: { ...result.details, utf8: false } };
  },
});
