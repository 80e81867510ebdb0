/**
 * The ripgrep route of `grep`, in two passes so the result is the same as the fallback's, whatever order
 * ripgrep's threads finish in: first every file with a match (in parallel, stopping at the first match per
 * file), sorted by path; then the matching lines and context of just the first files, as JSON.
 */
import { z } from "@keel/extensions-api";
import type { Operations } from "@keel/extensions-api";
import { globMatcher, ripgrepNameFilter } from "./glob.js";
import type { FileHits, Hit } from "./grep-hits.js";
import { COMMON_FLAGS, type Ripgrep } from "./ripgrep.js";
import { byPath, splitPaths } from "./search-files.js";

export interface GrepQuery {
  pattern: string;
  /** The folder searched, as the backend accepts it. */
  folder: string;
  glob?: string;
  ignoreCase: boolean;
  literal: boolean;
  context: number;
  limit: number;
}

export class InvalidPatternError extends Error {}

function matcherFlags(query: GrepQuery): string[] {
  return [...(query.ignoreCase ? ["--ignore-case"] : []), ...(query.literal ? ["--fixed-strings"] : []), "--crlf", "--regexp", query.pattern];
}

/** ripgrep's JSON gives text as `{text}` or, when not valid UTF-8, as `{bytes}` in base64. */
const RgText = z.object({ text: z.string().optional(), bytes: z.string().optional() }).optional();
const RgEvent = z.object({
  type: z.string(),
  data: z.object({ path: RgText, line_number: z.number().nullish(), lines: RgText }),
});

function textOf(value: z.output<typeof RgText>): string {
  if (!value) return "";
  return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}

async function explainFailure(ripgrep: Ripgrep, ops: Operations, args: string[], query: GrepQuery, signal: AbortSignal): Promise<Error> {
  const run = await ripgrep.run(ops, query.folder, args, signal, "only");
  const message = run?.output.toString("utf8").trim() ?? "";
  if (/regex parse error/.test(message)) {
    const detail = message.split("\n").find((line) => line.startsWith("error:"))?.slice("error:".length).trim() ?? message;
    return new InvalidPatternError(detail);
  }
  return new Error(`grep failed: ${message || "ripgrep exited with an error and said nothing"}`);
}

/**
 * Hits for `query`, per file in path order, holding at least `limit + 1` matches when that many exist.
 * Resolves undefined when ripgrep cannot run, so the caller falls back. Paths are relative to the folder.
 */
export async function grepWithRipgrep(ripgrep: Ripgrep, ops: Operations, query: GrepQuery, signal: AbortSignal): Promise<FileHits[] | undefined> {
  const prefilter = query.glob ? ripgrepNameFilter(query.glob) : [];
  const listArgs = ["--files-with-matches", "--null", ...COMMON_FLAGS, ...prefilter, ...matcherFlags(query), "."];
  const listed = await ripgrep.run(ops, query.folder, listArgs, signal);
  if (!listed) return undefined;
  if (listed.code === 2 && listed.output.length === 0) throw await explainFailure(ripgrep, ops, listArgs, query, signal);
  let files = splitPaths(listed.output);
  if (query.glob) files = files.filter(globMatcher(query.glob));
  // Every listed file holds at least one match, so the first limit + 1 of them hold the first limit + 1 matches.
  files = files.sort(byPath).slice(0, query.limit + 1);
  if (files.length === 0) return [];

  const contextArgs = query.context > 0 ? ["--context", String(query.context)] : [];
  const searchArgs = ["--json", "--no-config", "--max-count", String(query.limit + 1), ...contextArgs, ...matcherFlags(query), "--", ...files];
  const searched = await ripgrep.run(ops, query.folder, searchArgs, signal);
  if (!searched) return undefined;

  const byFile = new Map<string, Hit[]>();
  for (const line of searched.output.toString("utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    const parsed = RgEvent.safeParse(JSON.parse(line));
    if (!parsed.success) continue;
    const event = parsed.data;
    if (event.type !== "match" && event.type !== "context") continue;
    const path = textOf(event.data.path);
    const hits = byFile.get(path) ?? [];
    hits.push({ line: event.data.line_number ?? 0, text: textOf(event.data.lines).replace(/\r?\n$/, ""), match: event.type === "match" });
    byFile.set(path, hits);
  }
  return files.filter((path) => byFile.has(path)).map((path) => ({ path, hits: byFile.get(path)!.sort((a, b) => a.line - b.line) }));
}
