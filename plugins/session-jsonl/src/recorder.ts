/**
 * The live session: turns what the agent does into entries, keeps the leaf and knows which entry each
 * message object of the host's history came from (so a compaction's first kept message becomes a
 * `firstKeptEntryId`), and appends through the writer. A new session's file is created with the first
 * message (the prompt, as soon as the run starts, so what the user typed survives a crash before the first
 * reply); a session that never prompts leaves no file, and entries made before that wait in memory.
 */
import { randomHex, randomUUID } from "@keel/extensions-api/random-id";
import { join } from "node:path";
import type { EventPayloads, Message, PluginEntry } from "@keel/extensions-api";
import { buildContext, type BranchContext } from "./context.ts";
import { FORMAT_VERSION, type Entry, type Header, type NewEntry } from "./format.ts";
import { loadBranch } from "./load.ts";
import type { LockSettings } from "./lock.ts";
import { SessionLockedError } from "./lock.ts";
import { META_VERSION, freshMeta, noteEntry, writeMeta, type SessionMeta } from "./meta.ts";
import { sessionFileName } from "./paths.ts";
import { SessionWriter } from "./writer.ts";

export interface RecorderOptions {
  cwd: string;
  lock: LockSettings;
  fsync?: boolean;
  /** Something the user should know (read-only session, lost lock, unreadable lines). */
  warn(message: string): void;
  newId?: () => string;
  now?: () => Date;
}

export interface Resumed {
  recorder: SessionRecorder;
  context: BranchContext;
  /** The model of the branch's last reply, to restore. */
  model?: { provider: string; model: string };
  warnings: string[];
}

/** 12 random hex digits, from the host's pool of random bytes (`randomBytes(6)` called OpenSSL per entry). */
const randomId = () => randomHex(6);
const META_INTERVAL_MS = 1_000;

export class SessionRecorder {
  private writer: SessionWriter | undefined;
  private pending: Entry[] = [];
  private readOnlyReason: string | undefined;
  private lastModel: string | undefined;
  private leaf: string | null = null;
  /** The entry each message object of the host's history was recorded as (or rebuilt from). */
  private entryOf = new WeakMap<Message, string>();
  private metaWrittenAt = 0;
  private readonly newId: () => string;
  private readonly now: () => Date;

  private constructor(
    readonly path: string,
    readonly header: Header,
    private readonly meta: SessionMeta,
    private readonly options: RecorderOptions,
  ) {
    this.newId = options.newId ?? randomId;
    this.now = options.now ?? (() => new Date());
  }

  /** A new session in `dir`; nothing is written until the first message. */
  static start(dir: string, sessionId: string, options: RecorderOptions): SessionRecorder {
    const created = (options.now ?? (() => new Date()))();
    const header: Header = {
      type: "session",
      version: FORMAT_VERSION,
      id: sessionId,
      cwd: options.cwd,
      created: created.toISOString(),
    };
    const meta: SessionMeta = {
      version: META_VERSION,
      id: sessionId,
      cwd: options.cwd,
      created: header.created,
      size: 0,
      entries: 0,
    };
    return new SessionRecorder(join(dir, sessionFileName(created, sessionId)), header, meta, options);
  }

  /**
   * Opens an existing session file: rebuilds the active branch's messages and takes the write lock. When
   * another process holds the lock, the recorder is read-only (see `readOnly`) and says so.
   */
  static resume(path: string, options: RecorderOptions): Resumed {
    const loaded = loadBranch(path);
    const warnings = [...loaded.warnings];
    const context = buildContext(loaded.branch, { partial: loaded.partial, warn: (w) => warnings.push(w) });
    let writer: SessionWriter | undefined;
    let readOnlyReason: string | undefined;
    let recorder: SessionRecorder | undefined;
    try {
      writer = SessionWriter.open(path, {
        lock: options.lock,
        fsync: options.fsync,
        onLost: (reason) => recorder?.lose(`the lock was lost: ${reason}`),
      });
    } catch (error) {
      if (!(error instanceof SessionLockedError)) throw error;
      readOnlyReason =
        `${error.message}, so this process opened it read-only: nothing from now on ` +
        `is saved. Close the other keel, or use /fork to continue in a new session file.`;
    }
    const meta = freshMeta(path, writer?.size);
    recorder = new SessionRecorder(path, loaded.header, meta, options);
    recorder.writer = writer;
    recorder.readOnlyReason = readOnlyReason;
    recorder.leaf = loaded.leafId;
    recorder.adopt(context);
    recorder.lastModel = lastModelOf(context.messages);
    const [provider, ...rest] = recorder.lastModel?.split("/") ?? [];
    const model = provider ? { provider, model: rest.join("/") } : undefined;
    return { recorder, context, model, warnings };
  }

  /** Starts a new session file holding a copy of `branch` (root first), remembering where it came from. */
  static fork(
    dir: string,
    from: { header: Header; path: string },
    branch: readonly Entry[],
    options: RecorderOptions,
  ): { recorder: SessionRecorder; context: BranchContext } {
    const forked = SessionRecorder.start(dir, randomUUID(), options);
    const leaf = branch.at(-1);
    if (leaf) forked.header.parentSession = { id: from.header.id, path: from.path, entryId: leaf.id };
    forked.pending = [...branch];
    forked.leaf = leaf?.id ?? null;
    forked.create();
    const context = buildContext(branch);
    forked.adopt(context);
    forked.lastModel = lastModelOf(context.messages);
    return { recorder: forked, context };
  }

  get sessionId(): string {
    return this.header.id;
  }
  get leafId(): string | null {
    return this.leaf;
  }
  /** Why nothing is being saved, or undefined when the session is written normally. */
  get readOnly(): string | undefined {
    return this.readOnlyReason;
  }
  /** Whether the file exists (it does from the first message on). */
  get created(): boolean {
    return this.writer !== undefined;
  }
  /** The entry id `message` (an object of the host's history) was recorded as. */
  entryIdOf(message: Message): string | undefined {
    return this.entryOf.get(message);
  }

  /** A message entered the host's history (`message_end`). */
  recordMessage(message: Message): void {
    if (message.role === "user" && message.kind === "compaction_summary") return;
    if (message.role === "assistant") {
      const model = `${message.provider}/${message.model}`;
      if (this.lastModel !== undefined && model !== this.lastModel)
        this.append({ type: "model_change", provider: message.provider, model: message.model });
      this.lastModel = model;
    }
    if (!this.writer) this.create(); // before the append, which then goes straight to the file
    const entry = this.append({ type: "message", message });
    this.entryOf.set(message, entry.id);
  }

  /**
   * The host compacted its history (`compaction_end`); `history` is its history right after, i.e.
   * `[summary, ...kept messages]`. The first kept message object tells which entry the summary stops at.
   */
  recordCompaction(
    event: EventPayloads["compaction_end"],
    history: readonly Message[],
    pluginEntries: readonly PluginEntry[] = [],
  ): void {
    const { summary } = event;
    if (summary === undefined || event.errorMessage) return;
    const firstKept = history[1];
    const firstKeptEntryId = firstKept ? this.entryOf.get(firstKept) : undefined;
    if (firstKept && !firstKeptEntryId) {
      this.options.warn(
        "session: the compaction kept a message this session never recorded; a resume will start " +
          "from the summary alone",
      );
    }
    const carried = pluginEntries.length > 0 ? { pluginEntries: [...pluginEntries] } : {};
    const entry = this.append({
      type: "compaction",
      summary,
      firstKeptEntryId,
      tokensBefore: event.tokensBefore,
      tokensAfter: event.tokensAfter,
      details: event.details,
      ...carried,
    });
    if (history[0]) this.entryOf.set(history[0], entry.id);
  }

  /** A plugin appended an entry (`session_entry`): a `custom` entry that names the plugin. */
  recordPluginEntry(entry: PluginEntry): void {
    this.append({ type: "custom", customType: entry.kind, plugin: entry.plugin, data: entry.data });
  }

  /** Appends any entry as a child of the leaf, which it becomes. */
  append(entry: NewEntry): Entry {
    const full = { ...entry, id: this.newId(), parentId: this.leaf, timestamp: this.now().toISOString() } as Entry;
    this.leaf = full.id;
    if (this.readOnlyReason) return full;
    if (!this.writer) {
      this.pending.push(full);
      return full;
    }
    try {
      this.writer.append([full]);
    } catch (error) {
      // A failed write (disk full, file removed) may leave a torn line; the next writer trims it.
      this.lose(`writing failed: ${(error as Error).message}`);
      return full;
    }
    this.noted([full]);
    return full;
  }

  /** Moves the leaf (a jump in the tree); the next entry is appended below `leafId`. */
  moveTo(leafId: string | null): void {
    this.leaf = leafId;
  }

  /** Remembers which entry each message of a rebuilt context came from (they enter the host's history). */
  adopt(context: BranchContext): void {
    context.messages.forEach((m, i) => this.entryOf.set(m, context.ids[i]!));
  }

  /** Releases the lock and closes the file. */
  close(): void {
    if (!this.writer) return;
    if (this.writer.writable) this.noted([], true);
    this.writer.close();
    this.writer = undefined;
  }

  private create(): void {
    if (this.readOnlyReason) return;
    try {
      this.writer = SessionWriter.create(this.path, this.header, this.pending, {
        lock: this.options.lock,
        fsync: this.options.fsync,
        onLost: (reason) => this.lose(`the lock was lost: ${reason}`),
      });
    } catch (error) {
      this.readOnlyReason =
        `could not create ${this.path} (${(error as Error).message}); ` + "this session is not being saved";
      this.options.warn(`session: ${this.readOnlyReason}`);
      return;
    }
    this.noted(this.pending, true);
    this.pending = [];
  }

  private noted(entries: readonly Entry[], force = false): void {
    for (const entry of entries) noteEntry(this.meta, entry);
    this.meta.size = this.writer!.size;
    // The index may lag the file by up to a second: readers scan whatever it does not cover yet.
    const now = Date.now();
    if (force || now - this.metaWrittenAt >= META_INTERVAL_MS) {
      writeMeta(this.path, this.meta);
      this.metaWrittenAt = now;
    }
  }

  private lose(reason: string): void {
    if (this.readOnlyReason) return;
    this.readOnlyReason =
      `${this.path} can no longer be written (${reason}); nothing from now on ` +
      `is saved. Use /fork to continue in a new session file.`;
    this.options.warn(`session: ${this.readOnlyReason}`);
  }
}

/** `provider/model` of the last assistant message. */
function lastModelOf(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant") return `${m.provider}/${m.model}`;
  }
  return undefined;
}
