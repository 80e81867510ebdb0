/**
* The session file format, version 1: one JSON object per line. The first line is the header; every later
* line is an entry with `type`, `id`, `parentId` (null for a root) and `timestamp`, written in that key order
* so a reader can find an entry's id without parsing the whole line. Entries form a tree; the active branch
* is the walk from the leaf (the last entry appended) up through `parentId`.
*/
import { z } from "@keel/extensions-api";
export const FORMAT_VERSION = 1;
export const HeaderSchema = z.looseObject({
	type: z.literal("session"),
	version: z.number().int().positive(),
	id: z.string().min(1),
	cwd: z.string(),
	created: z.string(),
	/** Set when the session was forked from another one. */
	parentSession: z.object({
		id: z.string(),
		path: z.string(),
		entryId: z.string()
	}).optional()
});
const base = {
	id: z.string().min(1),
	parentId: z.string().nullable(),
	timestamp: z.string()
};
// Messages come from our own writer; only their role is checked here, the loop validated the rest.
const MessageSchema = z.custom((v) => typeof v === "object" && v !== null && [
	"user",
	"assistant",
	"toolResult"
].includes(v.role));
export const EntrySchema = z.discriminatedUnion("type", [
	z.looseObject({
		type: z.literal("message"),
		...base,
		message: MessageSchema
	}),
	z.looseObject({
		type: z.literal("compaction"),
		...base,
		summary: z.string(),
		firstKeptEntryId: z.string().optional(),
		tokensBefore: z.number(),
		tokensAfter: z.number().optional(),
		details: z.unknown().optional()
	}),
	z.looseObject({
		type: z.literal("branch_summary"),
		...base,
		summary: z.string(),
		fromId: z.string()
	}),
	z.looseObject({
		type: z.literal("model_change"),
		...base,
		provider: z.string(),
		model: z.string()
	}),
	z.looseObject({
		type: z.literal("label"),
		...base,
		targetId: z.string(),
		label: z.string().nullable()
	}),
	z.looseObject({
		type: z.literal("custom"),
		...base,
		customType: z.string(),
		data: z.unknown().optional()
	}),
	z.looseObject({
		type: z.literal("custom_message"),
		...base,
		customType: z.string(),
		content: z.string()
	})
]);
/** The custom entry type that names a session (`/name`). */
export const NAME_ENTRY = "session-jsonl/name";
/**
* Upgrades of older formats, by the version they upgrade from. Version 1 is the first, so the table is empty;
* a version 2 adds `1: (line) => ...` here and bumps FORMAT_VERSION.
*/
const MIGRATIONS = {};
/** Brings one parsed line from `version` to the current format. */
export function migrate(value, version) {
	let out = value;
	for (let v = version; v < FORMAT_VERSION; v++) {
		const step = MIGRATIONS[v];
		if (!step) throw new Error(`no migration from session format ${v} to ${v + 1}`);
		out = step(out);
	}
	return out;
}
/** Serialises with `type`, `id`, `parentId`, `timestamp` first (the reader's fast path relies on it). */
export function entryLine(entry) {
	const { type, id, parentId, timestamp, ...rest } = entry;
	return JSON.stringify({
		type,
		id,
		parentId,
		timestamp,
		...rest
	}) + "\n";
}
export function headerLine(header) {
	return JSON.stringify(header) + "\n";
}
const ID_PREFIX = /^\{"type":"[a-z_]+","id":"([^"\\]+)","parentId":(?:null|"([^"\\]+)")/;
/** The id and parent of a line written by `entryLine`, without parsing it; undefined for other layouts. */
export function peekIds(prefix) {
	const m = ID_PREFIX.exec(prefix);
	return m ? {
		id: m[1],
		parentId: m[2] ?? null
	} : undefined;
}
