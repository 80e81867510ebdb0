/**
 * One session as the server holds it: its runtime, the numbered stream of its events and questions (every
 * client receives all of it, in order), the clients attached, and the bridge through which any of them answers
 * a plugin's question. Clients are anything with `send(text)`: the socket code attaches them.
 */
import { textOf, type OpenedSession, type UiRequest, type UiResponse } from "@keel/extensions-api";
import type { RpcUiRequest, RpcWelcome } from "@keel/rpc-client/protocol";
import { onEventLines, serveMessage, UiBridge } from "@keel/rpc-server";
import { EventLog, type LogLimits } from "./event-log.ts";

export interface HubClient {
  send(text: string): void;
  /** The session is closed: the client is let go for good. */
  end(): void;
}

/** What a session is, for listings. */
export interface HubSummary {
  id: string;
  sessionId: string;
  isRunning: boolean;
  clients: number;
  firstPrompt?: string;
  model?: string;
}

export class SessionHub {
  private readonly log: EventLog;
  private readonly clients = new Set<HubClient>();
  /** Questions asked and not yet closed, for clients that come after they were asked. */
  private readonly open = new Map<string, RpcUiRequest>();
  private readonly offEvents: () => void;
  /** When a client last came, went or sent something, or the session last published (ms since the epoch). */
  private lastActive = Date.now();

  constructor(
    readonly id: string,
    private readonly opened: OpenedSession,
    private readonly bridge: UiBridge,
    limits?: LogLimits,
  ) {
    this.log = new EventLog(limits);
    this.offEvents = onEventLines(opened.runtime, (event) => this.publish(event));
    bridge.open(
      (request) => {
        this.open.set(request.id, request);
        this.publish(request);
      },
      (id) => {
        this.open.delete(id);
        this.publish({ type: "extension_ui_closed", id });
      },
    );
  }

  /** A bridge whose questions wait for the hub made on it: for `openSession`'s `ask`, before the hub exists. */
  static bridge(): { bridge: UiBridge; ask(request: UiRequest): Promise<UiResponse | undefined> } {
    const bridge = new UiBridge();
    return { bridge, ask: async (request) => bridge.ask(request) };
  }

  get runtime() {
    return this.opened.runtime;
  }

  /**
   * Attaches a client: welcomes it, then replays what came after `after` (when given and still kept), then sends
   * it everything from now on. All in one turn of the event loop, so nothing falls between replay and live.
   */
  attach(client: HubClient, after?: number): void {
    const missed = after === undefined ? undefined : this.log.after(after);
    const resumed = missed !== undefined;
    const welcome: RpcWelcome = { type: "welcome", session: this.id, seq: this.log.last, resumed };
    if (!resumed && this.open.size > 0) welcome.questions = [...this.open.values()];
    client.send(JSON.stringify(welcome));
    for (const text of missed ?? []) client.send(text);
    this.clients.add(client);
    this.lastActive = Date.now();
  }

  detach(client: HubClient): void {
    this.clients.delete(client);
    this.lastActive = Date.now();
  }

  /** Whether nobody has had it open, and it has neither run nor asked anything, for `ms` or more. */
  idleFor(ms: number, now = Date.now()): boolean {
    const quiet = this.clients.size === 0 && this.open.size === 0 && !this.runtime.isRunning;
    return quiet && now - this.lastActive >= ms;
  }

  /**
   * Serves one message from `client`; its response goes to that client alone, with the seq of the last message
   * sent before the command ran. Taken in the same turn as the command starts, so what a command answering at
   * once reports (`get_messages`, `get_state`) includes that message and nothing after it.
   */
  async serve(client: HubClient, text: string): Promise<void> {
    const seq = this.log.last;
    this.lastActive = Date.now();
    const response = await serveMessage(text, this.runtime, this.bridge);
    if (response && this.clients.has(client)) client.send(JSON.stringify({ ...response, seq }));
  }

  summary(): HubSummary {
    const runtime = this.runtime;
    const first = runtime.messages.find((m) => m.role === "user");
    const text = first && textOf(first);
    return {
      id: this.id,
      sessionId: runtime.sessionId,
      isRunning: runtime.isRunning,
      clients: this.clients.size,
      ...(text && { firstPrompt: text.slice(0, 200) }),
      ...(runtime.model && { model: `${runtime.model.provider}/${runtime.model.id}` }),
    };
  }

  /** Withdraws open questions, ends the session and lets its clients go. */
  async close(): Promise<void> {
    this.bridge.close();
    // Its clients see the session end (`session_end`) before they are let go.
    await this.opened.close();
    this.offEvents();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private publish(message: object): void {
    const text = this.log.append(message);
    this.lastActive = Date.now();
    for (const client of this.clients) client.send(text);
  }
}
