/**
 * Loading a session file. `loadSession` parses every line (the tree, /fork, /export); `loadBranch` reads
 * backwards from the end and parses only the entries the active branch needs since its latest compaction,
 * so resuming a 100 MB session reads a few hundred kilobytes. Neither ever changes the file: an unreadable
 * line is skipped with a warning, the chain is joined around it (./repair.ts), and a torn tail is ignored.
 * When the fast read meets a parent it cannot find, it falls back to the full parse, which repairs the chain.
 */
import { isUtf8 } from "node:buffer";
import { branchTo } from "./context.ts";
import { HeaderSchema, EntrySchema, FORMAT_VERSION, migrate, peekIds, type Entry, type Header } from "./format.ts";
import { backwardLines, completeLength, forwardLines, readAt, withFile, type Line } from "./lines.ts";
import { repairParents, type FileLine } from "./repair.ts";

export interface LoadedSession {
  path: string;
  header: Header;
  /** Every readable entry, in file order. */
  entries: Entry[];
  byId: Map<string, Entry>;
  /** The last readable entry: the leaf of the active branch. */
  leafId: string | null;
  /** Unreadable lines, said in words (line offset and reason). */
  warnings: string[];
  /** Bytes after the last newline (a crashed append); the next writer trims them. */
  tornBytes: number;
}

export interface LoadedBranch {
  path: string;
  header: Header;
  /** Root-first entries of the active branch, starting at the oldest one its latest compaction kept. */
  branch: Entry[];
  /** Whether `branch` starts after the root (see `buildContext`'s `partial`). */
  partial: boolean;
  leafId: string | null;
  warnings: string[];
  tornBytes: number;
}

/** Thrown when a file is not a session this version can read; the message says why and what to do. */
export class SessionFormatError extends Error {}

function readHeader(path: string, fd: number, complete: number): { header: Header; end: number } {
  const first = readAt(fd, 0, Math.min(complete, 64 * 1024));
  const nl = first.indexOf(10);
  if (nl < 0)
    throw new SessionFormatError(`${path} has no complete header line; it is empty or was cut off while being created`);
  let value: unknown;
  try {
    value = JSON.parse(first.subarray(0, nl).toString("utf8"));
  } catch {
    throw new SessionFormatError(`${path} does not start with a session header (not JSON); is it a keel session file?`);
  }
  const parsed = HeaderSchema.safeParse(value);
  if (!parsed.success)
    throw new SessionFormatError(
      `${path} does not start with a session header (${parsed.error.issues[0]?.message}); is it a keel session file?`,
    );
  if (parsed.data.version > FORMAT_VERSION) {
    throw new SessionFormatError(
      `${path} was written by a newer keel (session format ${parsed.data.version}; this one reads ` +
        `up to ${FORMAT_VERSION}); update keel to open it`,
    );
  }
  return { header: parsed.data, end: nl + 1 };
}

/** The ids at the start of a line, read without parsing it (a damaged line may still show them). */
function idsOf(line: Line): ReturnType<typeof peekIds> {
  return peekIds(line.bytes.subarray(0, 200).toString("latin1"));
}

function parseEntry(line: Line, version: number, warnings: string[]): Entry | undefined {
  // Our writer only writes UTF-8; a line that is not was damaged, but what can be read of it is kept.
  if (!isUtf8(line.bytes))
    warnings.push(`the line at byte ${line.offset} holds bytes that are not valid UTF-8; they were read as U+FFFD`);
  let value: unknown;
  try {
    value = JSON.parse(line.bytes.toString("utf8"));
  } catch {
    warnings.push(`skipped an unreadable line at byte ${line.offset} (not JSON)`);
    return undefined;
  }
  if (typeof value !== "object" || value === null) {
    warnings.push(`skipped an unreadable line at byte ${line.offset} (not an object)`);
    return undefined;
  }
  const parsed = EntrySchema.safeParse(
    version < FORMAT_VERSION ? migrate(value as Record<string, unknown>, version) : value,
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    warnings.push(
      `skipped an unreadable line at byte ${line.offset} (${issue?.path.join(".") || "entry"}: ${issue?.message})`,
    );
    return undefined;
  }
  return parsed.data;
}

/** Parses the whole file. */
export function loadSession(path: string): LoadedSession {
  return withFile(path, (fd, size) => {
    const complete = completeLength(fd, size);
    const { header, end } = readHeader(path, fd, complete);
    const warnings: string[] = [];
    const lines: FileLine[] = [];
    for (const line of forwardLines(fd, end, complete)) {
      const entry = parseEntry(line, header.version, warnings);
      lines.push(entry ? { entry } : { damaged: { ids: idsOf(line) } });
    }
    const entries = repairParents(lines, (message) => warnings.push(message));
    const byId = new Map(entries.map((entry) => [entry.id, entry]));
    return { path, header, entries, byId, leafId: entries.at(-1)?.id ?? null, warnings, tornBytes: size - complete };
  });
}

/**
 * Reads the active branch from the end of the file back to the oldest entry its latest compaction kept; when
 * a parent on the way is missing (a damaged line), the whole file is parsed and the repaired branch returned.
 */
export function loadBranch(path: string): LoadedBranch {
  const fast = withFile(path, (fd, size) => {
    const complete = completeLength(fd, size);
    const { header, end } = readHeader(path, fd, complete);
    const warnings: string[] = [];
    const branch: Entry[] = [];
    let wanted: string | null | undefined; // undefined: still looking for the leaf
    let stopAt: string | undefined; // the first kept entry of the latest compaction
    let done = false;
    for (const line of backwardLines(fd, complete)) {
      if (line.offset < end || done) break;
      if (wanted !== undefined) {
        const ids = idsOf(line);
        if (ids && ids.id !== wanted) continue;
      }
      const entry = parseEntry(line, header.version, warnings);
      if (!entry || (wanted !== undefined && entry.id !== wanted)) continue;
      branch.push(entry);
      wanted = entry.parentId;
      if (entry.type === "compaction" && (stopAt === undefined || entry.id === stopAt)) {
        if (entry.firstKeptEntryId === undefined) done = true;
        stopAt = entry.firstKeptEntryId;
      } else if (entry.id === stopAt) done = true;
      if (wanted === null) done = true;
    }
    if (!done && wanted) return undefined;
    branch.reverse();
    return {
      path,
      header,
      branch,
      partial: branch.length > 0 && branch[0]!.parentId !== null,
      leafId: branch.at(-1)?.id ?? null,
      warnings,
      tornBytes: size - complete,
    };
  });
  if (fast) return fast;
  const full = loadSession(path);
  const { header, leafId, warnings, tornBytes } = full;
  return { path, header, branch: branchTo(full.byId, leafId), partial: false, leafId, warnings, tornBytes };
}
