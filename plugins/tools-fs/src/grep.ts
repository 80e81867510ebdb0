/**
 * `grep`: lines matching a regular expression (or literal text) under a folder or in one file, honouring
 * .gitignore, at most 100 matching lines, long lines cut. ripgrep does the work when the backend can run
 * it; otherwise the same search runs over `ops.list` and `ops.readFile`, with the same results.
 */
import { posix } from "node:path";
import { defineTool } from "@keel/extensions-api";
import { DEFAULT_MAX_BYTES, formatBytes, truncateHead } from "@keel/extensions-api/truncate";
import type { Operations, Tool } from "@keel/extensions-api";
import { decodeText, looksBinary } from "./content-kind.ts";
import { type FileHits, formatHits, searchLines, textLines } from "./grep-hits.ts";
import { grepWithRipgrep, type GrepQuery, InvalidPatternError } from "./grep-ripgrep.ts";
import { displayPath, joinDisplay, pathKind, withFsErrors } from "./paths.ts";
import type { Ripgrep } from "./ripgrep.ts";
import { filesUnder } from "./search-files.ts";
import { GREP_DEFAULT_LIMIT, GREP_MAX_LINE_CHARS, grepDeclaration } from "./declarations.ts";

export interface GrepDetails {
  path: string;
  matches: number;
  limitReached: boolean;
  engine: "ripgrep" | "fallback";
}

function compile(query: GrepQuery): RegExp {
  const source = query.literal ? query.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : query.pattern;
  try {
    return new RegExp(source, query.ignoreCase ? "i" : "");
  } catch (error) {
    throw new InvalidPatternError((error as Error).message);
  }
}

/** The fallback route: read the listed files in path order until more than `limit` lines matched. */
async function grepFiles(
  ops: Operations,
  folder: string,
  files: string[],
  regex: RegExp,
  query: GrepQuery,
  signal: AbortSignal,
): Promise<FileHits[]> {
  const found: FileHits[] = [];
  let matches = 0;
  for (const file of files) {
    if (matches > query.limit) break;
    if (signal.aborted) throw new Error("The search was aborted.");
    let bytes: Uint8Array;
    try {
      bytes = await ops.readFile(folder === "" ? file : posix.join(folder, file));
    } catch {
      continue; // unreadable: skipped, as ripgrep skips it
    }
    if (looksBinary(bytes)) continue;
    const hits = searchLines(textLines(decodeText(bytes)), regex, query.context, query.limit + 1 - matches);
    if (hits.length === 0) continue;
    matches += hits.filter((hit) => hit.match).length;
    found.push({ path: file, hits });
  }
  return found;
}

export function grepTool(ripgrep: Ripgrep): Tool<typeof grepDeclaration.parameters, GrepDetails> {
  return defineTool({
    ...grepDeclaration,
    async execute(input, ctx) {
      const target = input.path || ".";
      const shown = displayPath(ctx.ops.cwd, target);
      const query: GrepQuery = {
        pattern: input.pattern,
        folder: target,
        glob: input.glob,
        ignoreCase: input.ignoreCase ?? false,
        literal: input.literal ?? false,
        context: input.context ?? 0,
        limit: input.limit ?? GREP_DEFAULT_LIMIT,
      };
      const kind = await pathKind(ctx.ops, target);
      if (!kind) throw new Error(`Path not found: ${shown}. Check it with ls.`);

      let hits: FileHits[] | undefined;
      let engine: GrepDetails["engine"] = "fallback";
      try {
        if (kind === "file") {
          hits = await grepFiles(ctx.ops, "", [target], compile(query), query, ctx.signal);
        } else {
          if (await ripgrep.usable(ctx.ops)) hits = await grepWithRipgrep(ripgrep, ctx.ops, query, ctx.signal);
          if (hits) engine = "ripgrep";
          else {
            const regex = compile(query); // before walking, so a bad pattern fails at once
            const files = await withFsErrors(shown, () => filesUnder(ctx.ops, ripgrep, target, query.glob, ctx.signal));
            hits = await grepFiles(ctx.ops, target, files, regex, query, ctx.signal);
          }
        }
      } catch (error) {
        if (!(error instanceof InvalidPatternError)) throw error;
        throw new Error(
          `Invalid regular expression ${JSON.stringify(input.pattern)}: ${error.message}. Fix the ` +
            `pattern, or pass literal: true to search for the text as it is.`,
        );
      }

      const named = hits.map((file) => ({ ...file, path: kind === "file" ? shown : joinDisplay(shown, file.path) }));
      const result = formatHits(named, query.limit, query.context);
      const details: GrepDetails = { path: shown, matches: result.matches, limitReached: result.limitReached, engine };
      if (result.matches === 0) {
        const where = query.glob ? `${shown} (files matching ${query.glob})` : shown;
        return { content: `No matches for ${JSON.stringify(input.pattern)} in ${where}.`, details };
      }
      const cut = truncateHead(result.text, { maxLines: Number.MAX_SAFE_INTEGER, maxBytes: DEFAULT_MAX_BYTES });
      const notes: string[] = [];
      if (result.limitReached)
        notes.push(
          `${query.limit} matches limit reached. Use limit=${query.limit * 2} for more, or narrow ` +
            `the pattern, path or glob.`,
        );
      if (cut.truncated)
        notes.push(`Output cut at ${formatBytes(DEFAULT_MAX_BYTES)}; narrow the search or use less context.`);
      if (result.linesCut)
        notes.push(
          `Some lines were longer than ${GREP_MAX_LINE_CHARS} characters and were cut; use read to see them whole.`,
        );
      const text = notes.length > 0 ? `${cut.text}\n\n${notes.map((note) => `[${note}]`).join("\n")}` : cut.text;
      return { content: text, details };
    },
  });
}
