/**
 * The session index: one small `<session>.meta.json` per session file, holding what `keel sessions` shows.
 * The writer refreshes it on append; a reader trusts it only up to the byte size it records and scans just
 * the bytes after that (or the whole file when it is missing or the file shrank), then writes it back. So
 * listing never parses every file in full, and a crash never leaves the index wrong for long.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { textOf } from "@keel/extensions-api";
import { NAME_ENTRY, type Entry } from "./format.ts";
import { completeLength, forwardLines, withFile } from "./lines.ts";
import { idFromFileName, metaPathOf, sessionFiles } from "./paths.ts";

export const META_VERSION = 1;

export interface SessionMeta {
  version: number;
  id: string;
  cwd: string;
  created: string;
  /** Bytes of the session file this record accounts for (always the end of a complete line). */
  size: number;
  /** Entry lines (the header not counted). */
  entries: number;
  firstPrompt?: string;
  name?: string;
}

/** A session as listings show it. */
export interface SessionSummary extends SessionMeta {
  path: string;
  /** Modification time of the session file, ms. */
  lastUse: number;
}

const PROMPT_PREVIEW = 200;

export function readMeta(file: string): SessionMeta | undefined {
  try {
    const meta = JSON.parse(readFileSync(metaPathOf(file), "utf8")) as SessionMeta;
    return meta.version === META_VERSION ? meta : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the index entry atomically (temp file + rename). Failures are ignored: a reader rebuilds it. */
export function writeMeta(file: string, meta: SessionMeta): void {
  const tmp = `${metaPathOf(file)}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(meta));
    renameSync(tmp, metaPathOf(file));
  } catch {
    // The index is a cache of the file; the next listing rebuilds it.
  }
}

/** Folds one entry into the record. */
export function noteEntry(meta: SessionMeta, entry: Entry): void {
  meta.entries++;
  if (
    entry.type === "message" &&
    meta.firstPrompt === undefined &&
    entry.message.role === "user" &&
    entry.message.kind === undefined
  ) {
    meta.firstPrompt = textOf(entry.message).slice(0, PROMPT_PREVIEW);
  }
  if (entry.type === "custom" && entry.customType === NAME_ENTRY) {
    const name = (entry.data as { name?: unknown } | undefined)?.name;
    meta.name = typeof name === "string" ? name : undefined;
  }
}

/** Folds one entry line into the record, parsing it only when it may carry a first prompt or a name. */
export function noteLine(meta: SessionMeta, line: string): void {
  const interesting = (meta.firstPrompt === undefined && line.includes('"role":"user"')) || line.includes(NAME_ENTRY);
  const entry = interesting ? parseObject(line) : undefined;
  if (entry) noteEntry(meta, entry as Entry);
  else meta.entries++;
}

// Lines here are only previewed for listings; a malformed one is simply not previewed (the loader reports it).
function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The index entry of `file`, brought up to date by scanning only what it does not cover. */
export function freshMeta(file: string, size = statSync(file).size): SessionMeta {
  const known = readMeta(file);
  if (known && known.size === size) return known;
  return withFile(file, (fd) => {
    const complete = completeLength(fd, size);
    if (known && known.size === complete) return known;
    let meta: SessionMeta;
    let from: number;
    if (known && known.size < complete) {
      meta = { ...known };
      from = known.size;
    } else {
      meta = {
        version: META_VERSION,
        id: idFromFileName(file) ?? basename(file),
        cwd: "",
        created: "",
        size: 0,
        entries: 0,
      };
      from = 0;
    }
    for (const line of forwardLines(fd, from, complete)) {
      const text = line.bytes.toString("utf8");
      if (line.offset === 0) {
        const header = parseObject(text);
        if (header?.type === "session")
          Object.assign(meta, { id: String(header.id), cwd: String(header.cwd), created: String(header.created) });
        continue;
      }
      noteLine(meta, text);
    }
    meta.size = complete;
    writeMeta(file, meta);
    return meta;
  });
}

/** Sessions of one folder, most recently used first. */
export function listSessions(dir: string): SessionSummary[] {
  const out: SessionSummary[] = [];
  for (const path of sessionFiles(dir)) {
    try {
      const stat = statSync(path);
      out.push({ ...freshMeta(path, stat.size), path, lastUse: stat.mtimeMs });
    } catch {
      // Removed while listing.
    }
  }
  return out.sort((a, b) => b.lastUse - a.lastUse);
}

/** The most recently used session file of a folder, without reading any of them. */
export function latestSession(dir: string): string | undefined {
  let best: { path: string; mtime: number } | undefined;
  for (const path of sessionFiles(dir)) {
    try {
      const mtime = statSync(path).mtimeMs;
      if (!best || mtime > best.mtime) best = { path, mtime };
    } catch {
      // Removed meanwhile.
    }
  }
  return best?.path;
}
