/**
 * The sessions the server holds, by the server's own id (stable while the session it holds moves: `new_session`
 * or `switch_session` from a client keeps the hub). Opening one builds a runtime in this process
 * (`CliContext.openSession`); resuming a stored session reuses the hub that holds it, if any.
 */
import { randomBytes } from "node:crypto";
import type { CliContext, StoredSession } from "@keel/extensions-api";
import { SessionHub, type HubSummary } from "./hub.ts";

export class Sessions {
  private readonly hubs = new Map<string, SessionHub>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly context: CliContext) {}

  get(id: string): SessionHub | undefined {
    return this.hubs.get(id);
  }

  get size(): number {
    return this.hubs.size;
  }

  /** A new session; with `resume`, the stored session of that id (or id prefix, or path) in it. */
  async open(resume?: string): Promise<SessionHub> {
    if (resume !== undefined) {
      const holding = [...this.hubs.values()].find((hub) => hub.runtime.sessionId === resume);
      if (holding) return holding;
    }
    const { bridge, ask } = SessionHub.bridge();
    const opened = await this.context.openSession({ ask });
    try {
      if (resume !== undefined) {
        const store = await opened.runtime.sessionStore();
        if (!store) throw new Error("no plugin keeps sessions here (install or enable session-jsonl)");
        await store.switchTo(resume);
      }
    } catch (error) {
      await opened.close();
      throw error;
    }
    const hub = new SessionHub(randomBytes(6).toString("base64url"), opened, bridge);
    this.hubs.set(hub.id, hub);
    return hub;
  }

  /** The sessions held now, most recent first. */
  live(): HubSummary[] {
    return [...this.hubs.values()].reverse().map((hub) => hub.summary());
  }

  /** The workspace's stored sessions (from the store of a session held, or of one opened to ask). */
  async stored(): Promise<StoredSession[]> {
    const hub = this.hubs.values().next().value ?? (await this.open());
    const store = await hub.runtime.sessionStore();
    return store ? store.list() : [];
  }

  async close(id: string): Promise<boolean> {
    const hub = this.hubs.get(id);
    if (!hub) return false;
    this.hubs.delete(id);
    await hub.close();
    return true;
  }

  /**
   * Closes, every so often, the sessions that went idle for `ms` (nobody watching, nothing running or asked):
   * each ends as it would on a DELETE, stays in the store and can be resumed from the list. Stops with
   * `closeAll`.
   */
  expireIdle(ms: number): void {
    if (ms <= 0) return;
    this.sweeper = setInterval(
      () => {
        for (const [id, hub] of this.hubs) if (hub.idleFor(ms)) void this.close(id);
      },
      Math.max(50, Math.min(ms / 4, 30_000)),
    );
    this.sweeper.unref();
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.hubs.keys()].map((id) => this.close(id)));
  }
}
