/**
 * The session store as surfaces drive it: list the folder's sessions, start a new one, switch to another,
 * fork, read the tree and move in it. A plugin that keeps sessions (keel's is session-jsonl) registers one
 * (`registerSessionStore`); modes (RPC, ACP, the terminal UI) and commands reach it through
 * `runtime.sessionStore()`. Every method that moves the session replaces the runtime's history and plugin
 * entries (`history_replaced`) and, for another session, its id; none may run while a run is going.
 */

/** One session of the workspace folder, as listings show it. */
export interface StoredSession {
  id: string;
  /** Where the store keeps it (a file path for session-jsonl); what `switchTo` also accepts. */
  path: string;
  /** The name the user gave it (`/name`), if any. */
  name?: string;
  /** The first prompt, shortened, if any. */
  firstPrompt?: string;
  /** ISO time it was created. */
  created: string;
  /** Last use, ms since the epoch. */
  lastUse: number;
}

/** One entry of the session tree. `parentId` is null for a root; the entries form a tree. */
export interface SessionTreeEntry {
  id: string;
  parentId: string | null;
  /** What the entry holds: `user`, `assistant`, `toolResult`, `compaction`, `branch_summary`, … */
  kind: string;
  /** One line describing it, for pickers. */
  preview: string;
  /** The user's bookmark on it (`/label`), if any. */
  label?: string;
  /** ISO time. */
  timestamp: string;
}

/** The tree of the current session and where it stands. */
export interface SessionTree {
  sessionId: string;
  entries: SessionTreeEntry[];
  /** The current position (the last entry of the active branch); null in an empty session. */
  leafId: string | null;
}

export interface SessionStore {
  /** Names it in listings and `prefer`. */
  name: string;
  /** The sessions of the workspace folder, most recently used first. */
  list(): StoredSession[];
  /** Starts a new, empty session with a new id (the history and plugin entries are emptied). */
  newSession(): Promise<void>;
  /** Resumes another session by id, unique id prefix or path; throws saying what was tried when none matches. */
  switchTo(ref: string): Promise<void>;
  /** Continues in a new session from entry `ref` (id or label; default: the current position); resolves its id. */
  fork(ref?: string): Promise<string>;
  /** The current session's tree; empty before anything was recorded. */
  tree(): SessionTree;
  /**
   * Moves to entry `ref` (id or label) of the current session; with `summarize`, keeps a summary of the branch left.
   */
  jump(ref: string, options?: { summarize?: boolean }): Promise<void>;
}
