/**
 * The ripgrep route of `grep`: one ripgrep run with `--sort path` and `--json`, read as it streams and
 * stopped once more matching lines than the limit have arrived. Sorting makes ripgrep search in path order,
 * so the results equal the fallback's and a common pattern costs a few files rather than the whole tree.
 * Every file's hits are confirmed through the backend before they are returned (./confirm.ts).
 */
import { posix } from "node:path";
import { z } from "@keel/extensions-api";
import type { Operations } from "@keel/extensions-api";
import { confirmHits } from "./confirm.ts";
import { globMatcher, literalFolder, ripgrepNameFilter } from "./glob.ts";
import type { FileHits, Hit } from "./grep-hits.ts";
import { pathKind } from "./paths.ts";
import { COMMON_FLAGS, type Ripgrep } from "./ripgrep.ts";

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

function matcherFlags(query: GrepQuery): string[] {
  return [
    ...(query.ignoreCase ? ["--ignore-case"] : []),
    ...(query.literal ? ["--fixed-strings"] : []),
    "--crlf",
    "--regexp",
    query.pattern,
  ];
}

/**
 * Whether ripgrep's error output is only files it could not read (`rg: <path>: <why> (os error N)`), which the
 * search skips as the fallback does. Such a file may have vanished while the folder was swapped for a link to
 * outside the workspace (ripgrep listed the outside folder, then the swap went back), so its name is not said.
 */
export function onlyUnreadableFiles(message: string): boolean {
  const lines = message.split("\n").filter((line) => line.trim() !== "");
  return lines.length > 0 && lines.every((line) => /^rg: .*\(os error \d+\)$/.test(line.trim()));
}

/** Why ripgrep failed, or undefined when it only skipped files it could not read. */
async function explainFailure(
  ripgrep: Ripgrep,
  ops: Operations,
  folder: string,
  args: string[],
  signal: AbortSignal,
): Promise<Error | undefined> {
  const run = await ripgrep.run(ops, folder, args, signal, { stderr: "only" });
  const message = run?.output.toString("utf8").trim() ?? "";
  if (onlyUnreadableFiles(message)) return undefined;
  if (/regex parse error/.test(message)) {
    const detail =
      message
        .split("\n")
        .find((line) => line.startsWith("error:"))
        ?.slice("error:".length)
        .trim() ?? message;
    return new InvalidPatternError(detail);
  }
  return new Error(`grep failed: ${message || "ripgrep exited with an error and said nothing"}`);
}

/** Collects hits per file from ripgrep's JSON lines as they stream in. */
class HitCollector {
  readonly files: FileHits[] = [];
  matches = 0;
  private pending = "";
  private readonly decoder = new TextDecoder();
  private readonly keep: (path: string) => boolean;

  /** `prefix`: where ripgrep ran, relative to the folder the paths are reported from. */
  constructor(
    glob: string | undefined,
    private readonly prefix: string,
  ) {
    this.keep = glob ? globMatcher(glob) : () => true;
  }

  push(chunk: Uint8Array): void {
    const lines = (this.pending + this.decoder.decode(chunk, { stream: true })).split("\n");
    this.pending = lines.pop() ?? "";
    for (const line of lines) this.take(line);
  }

  finish(): void {
    this.take(this.pending + this.decoder.decode());
    this.pending = "";
  }

  private take(line: string): void {
    if (!line.startsWith("{")) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return; // the last line of a run stopped early, cut short
    }
    const parsed = RgEvent.safeParse(json);
    if (!parsed.success || (parsed.data.type !== "match" && parsed.data.type !== "context")) return;
    const { data, type } = parsed.data;
    const raw = textOf(data.path);
    const relative = raw.startsWith("./") ? raw.slice(2) : raw;
    const path = this.prefix === "" ? relative : `${this.prefix}/${relative}`;
    if (!this.keep(path)) return;
    let file = this.files[this.files.length - 1];
    if (file?.path !== path) this.files.push((file = { path, hits: [] }));
    const hit: Hit = {
      line: data.line_number ?? 0,
      text: textOf(data.lines).replace(/\r?\n$/, ""),
      match: type === "match",
    };
    file.hits.push(hit);
    if (hit.match) this.matches++;
  }
}

/**
 * Hits for `query`, per file in path order, holding at least `limit + 1` matching lines when that many exist.
 * Resolves undefined when ripgrep cannot run, so the caller falls back. Paths are relative to the folder.
 */
export async function grepWithRipgrep(
  ripgrep: Ripgrep,
  ops: Operations,
  query: GrepQuery,
  signal: AbortSignal,
): Promise<FileHits[] | undefined> {
  const contextArgs = query.context > 0 ? ["--context", String(query.context)] : [];
  const nameFilter = query.glob ? ripgrepNameFilter(query.glob) : [];
  const args = [
    "--json",
    "--sort",
    "path",
    ...COMMON_FLAGS,
    ...nameFilter,
    ...contextArgs,
    ...matcherFlags(query),
    ".",
  ];
  const prefix = query.glob ? literalFolder(query.glob) : "";
  const start = prefix === "" ? query.folder : posix.join(query.folder, prefix);
  if (prefix !== "" && (await pathKind(ops, start)) !== "directory") return [];
  const collector = new HitCollector(query.glob, prefix);
  const run = await ripgrep.run(ops, start, args, signal, {
    enough(chunk) {
      collector.push(chunk);
      return collector.matches > query.limit;
    },
  });
  if (!run) return undefined;
  collector.finish();
  if (run.code === 2 && collector.files.length === 0) {
    const failure = await explainFailure(ripgrep, ops, start, args, signal);
    if (failure) throw failure;
  }
  return confirmHits(ops, query.folder, collector.files);
}
