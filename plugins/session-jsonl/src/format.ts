/**
 * The session file format, version 1: one JSON object per line. The first line is the header; every later
 * line is an entry with `type`, `id`, `parentId` (null for a root) and `timestamp`, written in that key order
 * so a reader can find an entry's id without parsing the whole line. Entries form a tree; the active branch
 * is the walk from the leaf (the last entry appended) up through `parentId`. The schemas are built when a file is
 * first read (`lazySchema`): writing a session never parses a line, so a run that does not resume skips them.
 */
import { z, type Message } from "@keel/extensions-api";
import { lazySchema } from "@keel/extensions-api/lazy-schema";

export const FORMAT_VERSION = 1;

export const HeaderSchema = lazySchema(() =>
  z.looseObject({
    type: z.literal("session"),
    version: z.number().int().positive(),
    id: z.string().min(1),
    cwd: z.string(),
    created: z.string(),
    /** Set when the session was forked from another one. */
    parentSession: z.object({ id: z.string(), path: z.string(), entryId: z.string() }).optional(),
  }),
);
export type Header = z.output<typeof HeaderSchema>;

export const EntrySchema = lazySchema(() => {
  const base = { id: z.string().min(1), parentId: z.string().nullable(), timestamp: z.string() };
  // Messages come from our own writer; only their role is checked here, the loop validated the rest.
  const MessageSchema = z.custom<Message>(
    (v) =>
      typeof v === "object" &&
      v !== null &&
      ["user", "assistant", "toolResult"].includes((v as { role?: unknown }).role as string),
  );
  /** An `api.session` entry as a compaction carries it. */
  const PluginEntrySchema = z.object({
    plugin: z.string(),
    kind: z.string(),
    data: z.unknown(),
    timestamp: z.number(),
  });
  return z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("message"), ...base, message: MessageSchema }),
    /**
     * The history before `firstKeptEntryId` was replaced by `summary`; absent `firstKeptEntryId` keeps nothing.
     * `pluginEntries` are the branch's plugin entries up to here, so a resume that starts at the cut has them all.
     */
    z.looseObject({
      type: z.literal("compaction"),
      ...base,
      summary: z.string(),
      firstKeptEntryId: z.string().optional(),
      tokensBefore: z.number(),
      tokensAfter: z.number().optional(),
      details: z.unknown().optional(),
      pluginEntries: z.array(PluginEntrySchema).optional(),
    }),
    /** A summary of the branch left when jumping elsewhere in the tree; sent to the model. */
    z.looseObject({ type: z.literal("branch_summary"), ...base, summary: z.string(), fromId: z.string() }),
    z.looseObject({ type: z.literal("model_change"), ...base, provider: z.string(), model: z.string() }),
    /** Bookmarks `targetId`; a null label removes the bookmark. */
    z.looseObject({ type: z.literal("label"), ...base, targetId: z.string(), label: z.string().nullable() }),
    /** Plugin state; never sent to the model. With `plugin`, an `api.session` entry handed back on every replay. */
    z.looseObject({
      type: z.literal("custom"),
      ...base,
      customType: z.string(),
      plugin: z.string().optional(),
      data: z.unknown().optional(),
    }),
    /** A plugin's message; sent to the model as a user message. */
    z.looseObject({ type: z.literal("custom_message"), ...base, customType: z.string(), content: z.string() }),
  ]);
});
export type Entry = z.output<typeof EntrySchema>;
export type EntryType = Entry["type"];
export type EntryOf<T extends EntryType> = Extract<Entry, { type: T }>;

/** An entry before the store gives it an id, a parent and a time. */
export type NewEntry = { [T in EntryType]: Omit<EntryOf<T>, "id" | "parentId" | "timestamp"> }[EntryType];

/** The custom entry type that names a session (`/name`). */
export const NAME_ENTRY = "session-jsonl/name";

/**
 * Upgrades of older formats, by the version they upgrade from. Version 1 is the first, so the table is empty;
 * a version 2 adds `1: (line) => ...` here and bumps FORMAT_VERSION.
 */
const MIGRATIONS: Record<number, (value: Record<string, unknown>) => Record<string, unknown>> = {};

/** Brings one parsed line from `version` to the current format. */
export function migrate(value: Record<string, unknown>, version: number): Record<string, unknown> {
  let out = value;
  for (let v = version; v < FORMAT_VERSION; v++) {
    const step = MIGRATIONS[v];
    if (!step) throw new Error(`no migration from session format ${v} to ${v + 1}`);
    out = step(out);
  }
  return out;
}

/** Serialises with `type`, `id`, `parentId`, `timestamp` first (the reader's fast path relies on it). */
export function entryLine(entry: Entry): string {
  const { type, id, parentId, timestamp, ...rest } = entry;
  return JSON.stringify({ type, id, parentId, timestamp, ...rest }) + "\n";
}

export function headerLine(header: Header): string {
  return JSON.stringify(header) + "\n";
}

const ID_PREFIX = /^\{"type":"[a-z_]+","id":"([^"\\]+)","parentId":(?:null|"([^"\\]+)")/;

/** The id and parent of a line written by `entryLine`, without parsing it; undefined for other layouts. */
export function peekIds(prefix: string): { id: string; parentId: string | null } | undefined {
  const m = ID_PREFIX.exec(prefix);
  return m ? { id: m[1]!, parentId: m[2] ?? null } : undefined;
}
