/**
 * The session's identity and the moves that replace its history: its id (changed on resume), its data folder,
 * the plugin entries of its active branch, and `history_replaced` after a resume, a branch or a compaction.
 */
import { mkdirSync } from "node:fs";
import { randomUUID } from "@keel/extensions-api/random-id";
import { join } from "node:path";
import type { HistoryReplaceReason, Message, ReplaceOptions, SessionStore } from "@keel/extensions-api";
import type { EventBus, Agent } from "@keel/kernel";
import type { Contributions } from "../host/registries.js";
import { checkedEntries, PluginEntries } from "../host/plugin-entries.js";

const SESSION_ID = /^[A-Za-z0-9_.-]{1,128}$/;

export class SessionMoves {
  readonly entries: PluginEntries;
  private sessionId: string = randomUUID();
  /** The data folder already created (the session id can change on resume). */
  /** The data folder made for the session id it is named after (asked by tools on every call). */
  private madeDataDir: { id: string; dir: string } | undefined;

  /** `agent` is the session's loop, built once the settings settle. */
  constructor(
    private readonly bus: EventBus,
    private readonly keelHome: string,
    private readonly contributions: Contributions,
    private readonly agent: () => Agent,
  ) {
    this.entries = new PluginEntries((entry) => bus.emit("session_entry", { entry }));
  }

  get id(): string {
    return this.sessionId;
  }

  /** `<home>/data/<session id>`, created on first use. */
  get dataDir(): string {
    if (this.madeDataDir?.id === this.sessionId) return this.madeDataDir.dir;
    const dir = join(this.keelHome, "data", this.sessionId);
    mkdirSync(dir, { recursive: true });
    this.madeDataDir = { id: this.sessionId, dir };
    return dir;
  }

  /** Replaces the history (and, when given, the plugin entries) and says so. */
  replaceMessages(messages: Message[], options: ReplaceOptions = {}): void {
    const entries = options.entries && checkedEntries(options.entries);
    this.agent().replaceMessages(messages);
    if (entries) this.entries.set(entries);
    this.historyReplaced(options.reason ?? "other");
  }

  setSessionId(id: string): void {
    if (!SESSION_ID.test(id))
      throw new Error(`A session id may hold only letters, digits, _ . - (got ${JSON.stringify(id)}).`);
    this.sessionId = id;
  }

  /** The first registered session store (call once the session has started: stores register then). */
  sessionStore(): SessionStore | undefined {
    return this.contributions.sessionStores.list()[0]?.item;
  }

  historyReplaced(reason: HistoryReplaceReason): void {
    this.bus.emit("history_replaced", { reason, messages: this.agent().messages, entries: this.entries.all });
  }
}
