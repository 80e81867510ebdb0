/**
 * The `read_result` tool: reads a stored large result by line range, or lists the lines that match a pattern.
 * Its own output stays under the size that would make it a large result again.
 */
import { defineTool, z } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";
import { cutToBytes, formatBytes, truncateHead } from "@keel/extensions-api/truncate";
import { linesOf, type ResultStore } from "./store.ts";

/** Built when the model is first offered the tool (once a result is stored) or calls it. */
export const ReadResultParams = lazySchema(() =>
  z.object({
    handle: z.string().describe('As the preview names it ("res_1a2b3c4d")'),
    offset: z.number().int().min(1).optional().describe("First line to read or search from (default 1)"),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Lines to read (default 500), or matches to list with grep (default 100)"),
    grep: z.string().optional().describe("A JavaScript regular expression: list matching lines instead of a range"),
    ignoreCase: z.boolean().optional().describe("With grep: ignore case"),
  }),
);

const DEFAULT_LINES = 500;
const DEFAULT_MATCHES = 100;
/** Matching lines are cut at this many characters, as the grep tool cuts them. */
const MATCH_LINE_CHARS = 500;

/** `maxBytes`: the most text one call returns (keep it under the large-result threshold). */
export function readResultTool(store: ResultStore, maxBytes: number) {
  return defineTool({
    name: "read_result",
    label: "Read result",
    description:
      "Read a tool result too large to show whole, stored under a handle: a range of lines or the lines matching grep.",
    // Shown to the model once a result was stored (in this session, or in the one resumed).
    offered: () => store.holdsAny(),
    parameters: ReadResultParams,
    readOnly: true,
    async execute(input) {
      const lines = linesOf(await store.load(input.handle));
      const offset = input.offset ?? 1;
      if (offset > lines.length)
        throw new Error(`Offset ${offset} is past the end: result ${input.handle} has ${lines.length} lines.`);
      if (input.grep !== undefined)
        return {
          content: grepLines(
            lines,
            input.handle,
            input.grep,
            input.ignoreCase ?? false,
            offset,
            input.limit ?? DEFAULT_MATCHES,
            maxBytes,
          ),
        };
      return { content: readRange(lines, input.handle, offset, input.limit ?? DEFAULT_LINES, maxBytes) };
    },
  });
}

function readRange(lines: string[], handle: string, offset: number, limit: number, maxBytes: number): string {
  const wanted = lines.slice(offset - 1, offset - 1 + limit).join("\n");
  const kept = truncateHead(wanted, { maxLines: limit, maxBytes });
  if (kept.lineCut) {
    const onward = offset < lines.length ? `, or read from line ${offset + 1}` : "";
    return (
      `${kept.text}\n\n[Line ${offset} ` +
      `is ${formatBytes(Buffer.byteLength(lines[offset - 1]!))}; showing its ` +
      `first ${formatBytes(kept.keptBytes)}. Search inside it with grep${onward}.]`
    );
  }
  const last = offset + kept.keptLines - 1;
  const next = last < lines.length ? ` Next: read_result({ "handle": "${handle}", "offset": ${last + 1} }).` : "";
  return `${kept.text}\n\n[Lines ${offset}-${last} of ${lines.length}.${next}]`;
}

function grepLines(
  lines: string[],
  handle: string,
  pattern: string,
  ignoreCase: boolean,
  offset: number,
  limit: number,
  maxBytes: number,
): string {
  const { test, note } = matcher(pattern, ignoreCase);
  const hits: string[] = [];
  let bytes = 0;
  let resumeAt: number | undefined;
  for (let i = offset - 1; i < lines.length; i++) {
    if (!test(lines[i]!)) continue;
    const line =
      lines[i]!.length > MATCH_LINE_CHARS ? `${lines[i]!.slice(0, MATCH_LINE_CHARS)}… [line cut]` : lines[i]!;
    const hit = `${i + 1}: ${line}`;
    const size = Buffer.byteLength(hit) + 1;
    if (hits.length >= limit || bytes + size > maxBytes) {
      resumeAt = i + 1;
      break;
    }
    hits.push(hit);
    bytes += size;
  }
  const prefix = note ? `${note}\n` : "";
  if (hits.length === 0)
    return (
      `${prefix}No line from ${offset} on matches ${JSON.stringify(pattern)} ` + `in ${handle} (${lines.length} lines).`
    );
  const more = resumeAt ? ` More matches follow; continue with "offset": ${resumeAt}.` : "";
  return (
    `${prefix}${cutToBytes(hits.join("\n"), maxBytes)}\n\n[${hits.length} matching lines ` +
    `shown, searched from line ${offset} of ${lines.length}.${more}]`
  );
}

/** A regular expression when the pattern is one; else its literal text, with a note saying so. */
function matcher(pattern: string, ignoreCase: boolean): { test: (line: string) => boolean; note?: string } {
  try {
    const re = new RegExp(pattern, ignoreCase ? "i" : "");
    return { test: (line) => re.test(line) };
  } catch (error) {
    const needle = ignoreCase ? pattern.toLowerCase() : pattern;
    return {
      test: (line) => (ignoreCase ? line.toLowerCase() : line).includes(needle),
      note:
        `[${JSON.stringify(pattern)} is not a valid regular expression ` +
        `(${(error as Error).message}); it was matched as plain text.]`,
    };
  }
}
