/**
 * The window strategy's note: what the dropped turns did, in a fixed shape that a later compaction can read
 * back, so repeated compaction adds to one note instead of nesting notes.
 */
import { digestActivity, type ActivityDigest } from "@keel/extensions-api/compaction";

/** Running totals of everything dropped so far in this session. */
export interface DroppedRecord {
  turns: number;
  messages: number;
  tools: string[];
  filesRead: string[];
  filesModified: string[];
  /** Text of a summary written by another strategy before this one took over. */
  earlier?: string;
}

const HEADING = "Older turns were dropped to free context; no summary of them was written. What they did:";
const LIST_LIMIT = 40;
const EARLIER_LIMIT = 4_000;

export function emptyRecord(): DroppedRecord {
  return { turns: 0, messages: 0, tools: [], filesRead: [], filesModified: [] };
}

/** Adds a span of dropped messages to the running record. */
export function addDropped(record: DroppedRecord, digest: ActivityDigest, messageCount: number): DroppedRecord {
  const modified = union(record.filesModified, digest.filesModified);
  return {
    ...record,
    turns: record.turns + digest.turns,
    messages: record.messages + messageCount,
    tools: union(record.tools, digest.tools),
    filesModified: modified,
    filesRead: union(record.filesRead, digest.filesRead).filter((f) => !modified.includes(f)),
  };
}

/** Renders the record; `splitTurn` describes the dropped start of the current turn, if it was split. */
export function renderNote(record: DroppedRecord, splitTurn?: { messages: number; digest: ActivityDigest }): string {
  const lines = [HEADING, `- Dropped: ${record.turns} turns, ${record.messages} messages`];
  lines.push(`- Tools used: ${list(record.tools)}`);
  lines.push(`- Files read: ${list(record.filesRead)}`);
  lines.push(`- Files modified: ${list(record.filesModified)}`);
  if (splitTurn) {
    const d = splitTurn.digest;
    const files = [...d.filesModified, ...d.filesRead];
    lines.push(
      `- The current turn was too long to keep whole: its first ${splitTurn.messages} messages were ` +
        `dropped (tools: ${list(d.tools)}; files: ${list(files)}).`,
    );
  }
  if (record.earlier) lines.push("", "An earlier summary of the conversation:", record.earlier);
  return lines.join("\n");
}

/**
 * Reads a previous summary back into a record. A note this strategy wrote parses exactly; any other text (a
 * summary from another strategy) is kept, shortened, as `earlier`.
 */
export function parseNote(summary: string | undefined): DroppedRecord {
  if (!summary) return emptyRecord();
  if (!summary.startsWith(HEADING)) return { ...emptyRecord(), earlier: shorten(summary) };
  const record = emptyRecord();
  const dropped = /^- Dropped: (\d+) turns, (\d+) messages$/m.exec(summary);
  if (dropped) {
    record.turns = Number(dropped[1]);
    record.messages = Number(dropped[2]);
  }
  record.tools = readList(summary, "Tools used");
  record.filesRead = readList(summary, "Files read");
  record.filesModified = readList(summary, "Files modified");
  const earlier = summary.indexOf("\nAn earlier summary of the conversation:\n");
  if (earlier >= 0) record.earlier = summary.slice(earlier + "\nAn earlier summary of the conversation:\n".length);
  return record;
}

function readList(summary: string, label: string): string[] {
  const line = new RegExp(`^- ${label}: (.*)$`, "m").exec(summary)?.[1];
  if (!line || line === "(none)") return [];
  return line
    .replace(/ \(\+\d+ more\)$/, "")
    .split(", ")
    .filter(Boolean);
}

function list(items: string[]): string {
  if (items.length === 0) return "(none)";
  const shown = items.slice(-LIST_LIMIT);
  const more = items.length - shown.length;
  return shown.join(", ") + (more > 0 ? ` (+${more} more)` : "");
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

function shorten(text: string): string {
  return text.length <= EARLIER_LIMIT
    ? text
    : `${text.slice(0, EARLIER_LIMIT)}\n[… ${text.length - EARLIER_LIMIT} more characters of the ` +
        `earlier summary were dropped]`;
}
