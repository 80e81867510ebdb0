/**
 * Plugin state in the session: entries a plugin appends (`api.session.append`) that the active session store
 * keeps beside the messages, and hands back, in branch order, whenever the history is replaced (resume, a jump
 * in the tree, a fork, a compaction). A plugin that rebuilds its state from its entries on `history_replaced`
 * is right on every branch, whatever the store.
 *
 * The contract for a store (keel's is session-jsonl): keep every `session_entry` event's entry on the branch
 * being written; when it moves to another branch or session, call `runtime.replaceMessages(messages, { reason,
 * entries })` with the plugin entries of the new active branch, oldest first; and keep the entries that a
 * compaction cut off (a resume that starts at the compaction must still return them).
 */

/** One entry a plugin appended to the session. `data` is plain JSON: it was written to disk and read back. */
export interface PluginEntry {
  /** The name of the plugin that appended it (its package name). */
  plugin: string;
  /** The plugin's own name for this kind of entry, e.g. `"todos"`. */
  kind: string;
  /** What the plugin stored. Parse it with your schema when you read it: an older version may have written it. */
  data: unknown;
  /** When it was appended, ms since the epoch. */
  timestamp: number;
}

/** Why the history was replaced; `history_replaced` carries it. */
export type HistoryReplaceReason = "resume" | "new" | "tree" | "fork" | "compaction" | "other";

/** What `runtime.replaceMessages` accepts beside the messages. */
export interface ReplaceOptions {
  /** Defaults to `"other"`. */
  reason?: HistoryReplaceReason;
  /** The plugin entries of the new active branch, oldest first. Absent: the current entries stay. */
  entries?: readonly PluginEntry[];
}

/** What `api.session` offers a plugin: its own entries on the active branch. */
export interface PluginSession {
  /**
   * Appends an entry of this plugin to the session, after everything so far on the active branch. The session
   * store keeps it (nothing is kept with `--no-session`, but the entry still counts for this run). `kind` is
   * 1-64 letters, digits, `_ . : -`; `data` must be JSON (at most 1 MB as text) and is copied. Throws with the
   * reason otherwise, and before the `session_start` hook.
   */
  append(kind: string, data: unknown): PluginEntry;
  /** This plugin's entries on the active branch, oldest first; only those of `kind` when given. */
  entries(kind?: string): PluginEntry[];
}
