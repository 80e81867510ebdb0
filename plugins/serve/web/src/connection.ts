/**
 * The page's connection to one session: the RPC protocol over the server's WebSocket. Requests resolve with
 * their response (and the seq it follows); events and questions go to `onMessage`. A connection that drops is
 * made again with `after=<last seq>`, so the server replays exactly what was missed. (`@keel/rpc-client` does
 * the same for Node programs; it also runs keel as a child process, which a page cannot.)
 */

export interface ServerMessage {
  type: string;
  seq?: number;
  [field: string]: unknown;
}

type Pending = { resolve(value: { data: unknown; seq: number }): void; reject(error: Error): void };

export class Connection {
  private socket: WebSocket | undefined;
  private lastSeq: number | undefined;
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  private failures = 0;

  constructor(
    private readonly session: string,
    private readonly onMessage: (message: ServerMessage) => void,
    private readonly onStatus: (connected: boolean) => void,
  ) {
    this.open();
  }

  /** Sends a command; resolves its data and the seq of the last message before its response. */
  request(type: string, fields: Record<string, unknown> = {}): Promise<{ data: unknown; seq: number }> {
    const id = `page-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (this.socket?.readyState !== WebSocket.OPEN) return reject(new Error("not connected; reconnecting"));
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...fields, type, id }));
    });
  }

  /** Answers a plugin's question (`extension_ui_request`). */
  answer(id: string, answer: { value?: string; confirmed?: boolean; cancelled?: true }): void {
    this.socket?.send(JSON.stringify({ type: "extension_ui_response", id, ...answer }));
  }

  close(): void {
    this.closed = true;
    this.socket?.close(1000, "page closed the session view");
  }

  private open(): void {
    const url = new URL(`/api/sessions/${this.session}/socket`, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    if (this.lastSeq !== undefined) url.searchParams.set("after", String(this.lastSeq));
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      this.onStatus(true);
    };
    socket.onmessage = (event) => this.receive(JSON.parse(String(event.data)) as ServerMessage);
    socket.onclose = (event) => {
      this.onStatus(false);
      for (const waiting of this.pending.values()) waiting.reject(new Error("the connection dropped"));
      this.pending.clear();
      // 4404: the server closed the session; there is nothing to reconnect to.
      if (this.closed || event.code === 4404 || ++this.failures > 30) return;
      setTimeout(() => this.open(), Math.min(2000, 100 * 2 ** this.failures));
    };
  }

  private receive(message: ServerMessage): void {
    if (message.type === "response") {
      const waiting = this.pending.get(String(message.id));
      if (!waiting) return;
      this.pending.delete(String(message.id));
      if (message.success) waiting.resolve({ data: message.data, seq: message.seq ?? 0 });
      else waiting.reject(new Error(String(message.error)));
      return;
    }
    // A resumed welcome's seq is the server's latest, and the replay of what came after ours follows it: taking
    // that seq would drop the replay as already seen.
    if (message.type === "welcome") {
      if (!message.resumed) this.lastSeq = Number(message.seq);
    } else if (typeof message.seq === "number") {
      if (this.lastSeq !== undefined && message.seq <= this.lastSeq) return;
      this.lastSeq = message.seq;
    }
    this.onMessage(message);
  }
}
