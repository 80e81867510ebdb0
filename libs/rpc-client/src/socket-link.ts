/**
 * The client's link to a session of `keel serve`: one WebSocket message per protocol message. A connection that
 * drops is made again with `after=<last seq received>`, so the server replays exactly what was missed; requests
 * waiting when it dropped are rejected, since whether they ran is unknown. The token travels in the query (a
 * WebSocket cannot carry headers from a browser, and Node's global one takes none either).
 */

/** How the client sends: one message's text at a time. */
export interface RpcLink {
  send(text: string): void;
  /** Ends the link: stdin closes, or the socket closes for good. */
  end(): void;
}

/** What a link tells its client. */
export interface LinkHandlers {
  receive(text: string): void;
  /** The connection dropped and is being made again: what waited for a response will not get one. */
  lost(error: Error): void;
  /** The link is gone for good. */
  closed(error: Error): void;
  /** The seq of the last message received, to resume after. */
  lastSeq(): number | undefined;
}

export type LinkFactory = (handlers: LinkHandlers) => RpcLink;

export interface ConnectOptions {
  /** The server's id of the session to join; default: a new session is opened. */
  session?: string;
  /** The token, when `address` does not carry it (`?token=`); default `KEEL_SERVE_TOKEN`. */
  token?: string;
  /** A WebSocket class (the `ws` package's) where there is no global one (Node 20). */
  WebSocket?: new (url: string) => WebSocketLike;
  /** How many times in a row a dropped connection is tried again before the client gives up; default 20. */
  retries?: number;
}

/** The part of the WHATWG WebSocket the link uses. */
export interface WebSocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: "open" | "close" | "error" | "message",
    listener: (event: { data?: unknown; code?: number }) => void,
  ): void;
}

const OPEN = 1;
const MAX_DELAY_MS = 2_000;
/** The server closed the session: there is nothing to reconnect to. */
const SESSION_CLOSED = 4404;

/** Opens a session (unless one is named) and its socket; `make` builds the client on the link once it is up. */
export async function openSocketLink(
  address: string,
  options: ConnectOptions,
  make: (factory: LinkFactory) => void,
): Promise<void> {
  const base = new URL(address);
  const token = options.token ?? base.searchParams.get("token") ?? process.env.KEEL_SERVE_TOKEN;
  if (!token) throw new Error(`${address} carries no token: pass the address keel serve printed, or options.token`);
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: ConnectOptions["WebSocket"] }).WebSocket;
  if (!Socket) throw new Error("no WebSocket here (Node 22 and later have one): pass options.WebSocket (ws)");
  const session = options.session ?? (await newSession(base, token));
  const socketUrl = (after: number | undefined) => {
    const url = new URL(`/api/sessions/${encodeURIComponent(session)}/socket`, base);
    url.protocol = base.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("token", token);
    if (after !== undefined) url.searchParams.set("after", String(after));
    return url.toString();
  };
  await new Promise<void>((resolve, reject) => {
    make((handlers) => {
      let socket: WebSocketLike;
      let ended = false;
      let failures = 0;
      let everOpen = false;
      const connect = () => {
        socket = new Socket(socketUrl(handlers.lastSeq()));
        socket.addEventListener("open", () => {
          failures = 0;
          everOpen = true;
          resolve();
        });
        socket.addEventListener("message", (event) => handlers.receive(String(event.data)));
        socket.addEventListener("close", (event) => {
          if (event.code === SESSION_CLOSED) ended = true;
          if (ended) return handlers.closed(new Error(`the connection to keel serve was closed (${event.code})`));
          const error = new Error("the connection to keel serve dropped; a request waiting then may have run");
          if (!everOpen || ++failures > (options.retries ?? 20)) {
            ended = true;
            handlers.closed(error);
            return reject(new Error(`could not connect to session ${session} at ${base.origin}`));
          }
          handlers.lost(error);
          setTimeout(connect, Math.min(MAX_DELAY_MS, 50 * 2 ** failures));
        });
      };
      connect();
      return {
        send: (text) => {
          if (socket.readyState !== OPEN) throw new Error("not connected to keel serve (it is reconnecting)");
          socket.send(text);
        },
        end: () => {
          ended = true;
          socket.close(1000, "client closed");
        },
      };
    });
  });
}

async function newSession(base: URL, token: string): Promise<string> {
  const response = await fetch(new URL("/api/sessions", base), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  const body = (await response.json().catch(() => ({}))) as { id?: string; error?: string };
  if (!response.ok || !body.id)
    throw new Error(`keel serve at ${base.origin} opened no session: ${body.error ?? response.status}`);
  return body.id;
}
