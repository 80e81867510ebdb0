/**
 * Who may talk to the server. Every request carries the token (the `Authorization: Bearer` header, the cookie
 * the page gets on its first load, or `?token=` where neither can be sent: a WebSocket from Node). The `Host`
 * header must name the server as clients reach it, so a page on another site whose name was rebound to
 * 127.0.0.1 (DNS rebinding) is refused; an `Origin`, which browsers send with every cross-site request and every
 * WebSocket, must be the server's own, so another site cannot drive a session with the user's cookie.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { networkInterfaces } from "node:os";
import { isLoopback, type ServeOptions } from "./flags.ts";

export interface Refusal {
  status: 401 | 403;
  message: string;
}

export class Guard {
  private readonly hosts: Set<string>;
  readonly cookie: string;

  constructor(
    private readonly token: string,
    private readonly options: ServeOptions,
    readonly port: number,
  ) {
    const names = ["127.0.0.1", "localhost", "[::1]"];
    if (!isLoopback(options.host)) names.push(hostName(options.host));
    if (options.host === "0.0.0.0" || options.host === "::") names.push(...interfaceAddresses());
    // A name given with its port (a proxy's, on another port) is taken as it is.
    const withPort = options.allowHosts.filter((name) => /:\d+$/.test(name));
    names.push(...options.allowHosts.filter((name) => !withPort.includes(name)));
    const bare = port === defaultPort(options);
    this.hosts = new Set([...names.flatMap((name) => [`${name}:${port}`, ...(bare ? [name] : [])]), ...withPort]);
    // Cookies are kept per host, not per port: two servers on one machine must not share one.
    this.cookie = `keel_serve_${port}`;
  }

  /** Why the request is refused, or undefined when it may go on. */
  check(request: IncomingMessage): Refusal | undefined {
    const host = request.headers.host?.toLowerCase();
    if (!host || !this.hosts.has(host))
      return { status: 403, message: `the Host "${host ?? ""}" is not this server's; add it with --allow-host` };
    const origin = request.headers.origin;
    if (origin !== undefined && !this.ownOrigin(origin))
      return { status: 403, message: `requests from ${origin} are refused: only this server's own page may send them` };
    if (request.headers["sec-fetch-site"] === "cross-site")
      return { status: 403, message: "cross-site requests are refused" };
    if (!this.tokenOf(request))
      return { status: 401, message: "a valid token is needed: open the address keel serve printed" };
    return undefined;
  }

  /** Whether the request carries the token, in any of the three places. */
  tokenOf(request: IncomingMessage): boolean {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const cookie = readCookie(request.headers.cookie, this.cookie);
    const query = new URL(request.url ?? "/", "http://x").searchParams.get("token") ?? undefined;
    return [bearer, cookie, query].some((given) => given !== undefined && this.matches(given));
  }

  /** The cookie that carries the token for the page's own requests: not readable by scripts, not sent cross-site. */
  setCookie(): string {
    const secure = this.options.tls ? "; Secure" : "";
    return `${this.cookie}=${this.token}; HttpOnly; SameSite=Strict; Path=/${secure}`;
  }

  private matches(given: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(this.token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private ownOrigin(origin: string): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    const scheme = this.options.tls ? "https:" : "http:";
    return url.protocol === scheme && this.hosts.has(url.host.toLowerCase());
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

function hostName(address: string): string {
  return address.includes(":") ? `[${address.toLowerCase()}]` : address.toLowerCase();
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => hostName(i.address));
}

function defaultPort(options: ServeOptions): number {
  return options.tls ? 443 : 80;
}
