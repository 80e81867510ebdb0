/**
 * The one HTTP exchange the driver makes — POST a JSON body, read the answer as a byte stream — over node:http
 * and node:https with keep-alive, instead of the global `fetch`. Node 20's fetch is undici, which loads and
 * compiles on first use: measured on loopback against the same server, a request took 0.86 ms through fetch and
 * 0.29 ms through node:http, and a process that made them peaked at 95 MB resident instead of 53 MB. A keel run
 * pays that memory again in every fork of a command, so the difference shows on every tool turn too.
 *
 * The shape is the subset of fetch the driver reads (`ok`, `status`, `headers.get`, `body`, `text()`), so a test
 * can still hand the driver a fetch-like function. Compressed answers are inflated as fetch would.
 */
import { Agent, request as httpRequest, type IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { urlToHttpOptions } from "node:url";

/** Response headers by name, case-insensitive; null when absent (as `Headers.get`). */
export interface HeaderLookup {
  get(name: string): string | null;
}

/** What the driver needs of an answer. A fetch `Response` is one. */
export interface HttpResponse {
  ok: boolean;
  status: number;
  headers: HeaderLookup;
  body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}

/** A POST of `body`: the global `fetch` fits, and so does `httpFetch`. */
export type HttpFetch = (
  url: string,
  init: { method: "POST"; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<HttpResponse>;

const plainAgent = new Agent({ keepAlive: true });
let tls: { agent: import("node:https").Agent; request: typeof import("node:https").request } | undefined;

/** Connections kept alive and free for the next request, to `host:port` over plain http. */
export function idleConnections(hostPort: string): number {
  return Object.entries(plainAgent.freeSockets)
    .filter(([key]) => key.startsWith(`${hostPort}:`))
    .reduce((sum, [, sockets]) => sum + (sockets?.length ?? 0), 0);
}

/** node:https (and with it tls and crypto, ~30 ms to load) only for the first https URL. */
function secureClient() {
  if (!tls) {
    const https = process.getBuiltinModule("node:https");
    tls = { agent: new https.Agent({ keepAlive: true }), request: https.request };
  }
  return tls;
}

/** Where a URL points, as node:http's options: parsed once per URL, since a session posts to one URL every turn. */
const targets = new Map<string, ReturnType<typeof urlToHttpOptions>>();
function targetOf(url: string): ReturnType<typeof urlToHttpOptions> {
  let target = targets.get(url);
  if (!target) {
    if (targets.size >= 64) targets.clear();
    target = urlToHttpOptions(new URL(url));
    targets.set(url, target);
  }
  return target;
}

/** Sends one request; rejects with the socket's error (a system `code`) or an `AbortError` on abort. */
export const httpFetch: HttpFetch = (url, init) =>
  new Promise((resolve, reject) => {
    const target = targetOf(url);
    const secure = target.protocol === "https:";
    if (!secure && target.protocol !== "http:")
      return reject(new TypeError(`Cannot send a request to ${url}: only http: and https: URLs are supported.`));
    const send = secure ? secureClient().request : httpRequest;
    const request = send(
      {
        ...target,
        method: init.method,
        headers: { "accept-encoding": "gzip, deflate, br", ...init.headers },
        agent: secure ? secureClient().agent : plainAgent,
        signal: init.signal,
      },
      (response) => resolve(responseOf(response, init.signal)),
    );
    request.once("error", reject);
    request.end(init.body);
  });

function responseOf(message: IncomingMessage, signal: AbortSignal): HttpResponse {
  // As with fetch, reading a body whose request was aborted fails with an AbortError, not a reset socket.
  const onAbort = () => message.destroy(new DOMException("This operation was aborted", "AbortError"));
  signal.addEventListener("abort", onAbort, { once: true });
  message.once("close", () => signal.removeEventListener("abort", onAbort));
  const status = message.statusCode ?? 0;
  const stream = decoded(message);
  const body = keepingConnection(message, stream);
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: {
      get(name) {
        const value = message.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body,
    async text() {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
  };
}

/** How long the rest of an answer is read after the reader stopped, so that its connection can be reused. */
const DRAIN_MS = 1000;

/**
 * The body for a reader that may stop early: the driver stops at a stream's final event, often a few bytes
 * before the server ends the answer (`data: [DONE]`). Destroying the answer there, as a plain iterator's
 * return does, would close the keep-alive connection and make every request open a new one (a TLS handshake
 * to a real provider); instead the rest is read and dropped, for at most `DRAIN_MS`, then the answer is
 * destroyed after all. An abort still destroys it at once.
 */
async function* keepingConnection(message: IncomingMessage, stream: Readable): AsyncGenerator<Uint8Array> {
  let ended = false;
  try {
    for await (const chunk of stream.iterator({ destroyOnReturn: false })) yield chunk as Uint8Array;
    ended = true;
  } finally {
    if (!ended && !message.destroyed) {
      const timer = setTimeout(() => message.destroy(), DRAIN_MS).unref();
      message.once("end", () => clearTimeout(timer));
      stream.resume();
    }
  }
}

/** The body as sent before any `content-encoding`, which servers may apply to error pages and some streams. */
function decoded(message: IncomingMessage): Readable {
  const encoding = message.headers["content-encoding"]?.trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "x-gzip" && encoding !== "deflate" && encoding !== "br") return message;
  // zlib only loads for a compressed answer; a broken stream errors the inflater, which the reader sees.
  const zlib = process.getBuiltinModule("node:zlib");
  const inflate =
    encoding === "br"
      ? zlib.createBrotliDecompress()
      : encoding === "deflate"
        ? zlib.createInflate()
        : zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH });
  message.once("error", (error) => inflate.destroy(error));
  inflate.once("close", () => message.destroy());
  return message.pipe(inflate);
}
