/**
 * `read`: a file's text from a line onward, within 2000 lines or 50 KB, saying where to continue; images as
 * image content; other binary files refused.
 */
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, defineTool, formatBytes, truncateHead, z } from "@keel/extensions-api";
import type { ToolResult } from "@keel/extensions-api";
import { decodeText, imageMimeType, looksBinary } from "./content-kind.js";
import { displayPath, withFsErrors } from "./paths.js";

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
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function imageResult(path: string, bytes: Uint8Array, mimeType: string): ToolResult<ReadDetails> {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new Error(`${path} is a ${mimeType} image of ${formatBytes(bytes.length)}; images over ${formatBytes(MAX_IMAGE_BYTES)} cannot be sent to the model. Make a smaller copy and read that.`);
  }
  return {
    content: [
      { type: "text", text: `Image ${path} (${mimeType}, ${formatBytes(bytes.length)})` },
      { type: "image", data: Buffer.from(bytes).toString("base64"), mimeType },
    ],
    details: { path, truncated: false, mimeType },
  };
}

export function textResult(path: string, text: string, offset: number | undefined, limit: number | undefined): ToolResult<ReadDetails> {
  if (text.length === 0) return { content: `[${path} is empty]`, details: { path, totalLines: 0, truncated: false } };
  const lines = splitLines(text);
  const total = lines.length;
  const start = (offset ?? 1) - 1;
  if (start >= total) {
    throw new Error(`offset ${offset} is past the end of ${path}, which has ${total} line${total === 1 ? "" : "s"}. Use an offset from 1 to ${total}.`);
  }
  const end = limit === undefined ? total : Math.min(start + limit, total);
  const cut = truncateHead(lines.slice(start, end).join("\n"), { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
  const details: ReadDetails = { path, totalLines: total, firstLine: start + 1, lastLine: end, truncated: cut.truncated };

  if (cut.lineCut) {
    const next = start + 2 <= total ? ` Use offset=${start + 2} to continue after it.` : "";
    const note = `[Line ${start + 1} is ${formatBytes(byteLength(lines[start]!))}, over the ${formatBytes(DEFAULT_MAX_BYTES)} limit; only its start is shown. Use grep to find text inside it.${next}]`;
    return { content: `${cut.text}\n\n${note}`, details: { ...details, lastLine: start + 1 } };
  }
  if (cut.truncated) {
    const last = start + cut.keptLines;
    const why = cut.truncatedBy === "bytes" ? ` (${formatBytes(DEFAULT_MAX_BYTES)} limit)` : "";
    return { content: `${cut.text}\n\n[Showing lines ${start + 1}-${last} of ${total}${why}. Use offset=${last + 1} to continue.]`, details: { ...details, lastLine: last } };
  }
  if (end < total) return { content: `${cut.text}\n\n[Showing lines ${start + 1}-${end} of ${total}. Use offset=${end + 1} to continue.]`, details };
  return { content: cut.text, details };
}

export const readTool = defineTool({
  name: "read",
  label: "Read",
  description:
    `Reads a text file, or shows an image (png, jpeg, gif, webp). Shows at most ${DEFAULT_MAX_LINES} lines or ` +
    `${DEFAULT_MAX_BYTES / 1024} KB at a time and says which offset continues; use offset and limit to page through large files.`,
  parameters: z.object({
    path: z.string().describe("File to read, relative to the workspace or absolute"),
    offset: z.number().int().min(1).optional().describe("First line to show, counting from 1"),
    limit: z.number().int().min(1).optional().describe("How many lines to show at most"),
  }),
  readOnly: true,
  async execute(input, ctx) {
    const path = displayPath(ctx.ops.cwd, input.path);
    const bytes = await withFsErrors(path, () => ctx.ops.readFile(input.path));
    const mimeType = imageMimeType(bytes);
    if (mimeType) return imageResult(path, bytes, mimeType);
    if (looksBinary(bytes)) {
      throw new Error(`${path} is a binary file (${formatBytes(bytes.length)}); read shows text files and png, jpeg, gif or webp images only.`);
    }
    return textResult(path, decodeText(bytes), input.offset, input.limit);
  },
});
