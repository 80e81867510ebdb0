/** `keel serve`'s flags, and what they mean once checked: where to listen, whom to let in, and how. */
import type { FlagSpec } from "@keel/extensions-api";

export const SERVE_FLAGS: FlagSpec[] = [
  { name: "port", description: "the port to listen on (default: any free one)", type: "string", valueName: "<n>" },
  { name: "host", description: "the address to listen on (default 127.0.0.1)", type: "string", valueName: "<addr>" },
  {
    name: "expose",
    description: "allow listening on an address other machines reach (needs --host; use TLS)",
    type: "boolean",
  },
  { name: "tls-cert", description: "serve HTTPS with this certificate (PEM)", type: "string", valueName: "<file>" },
  { name: "tls-key", description: "the private key of --tls-cert (PEM)", type: "string", valueName: "<file>" },
  {
    name: "idle-minutes",
    description:
      "close a session no client has had open for this long, when it neither runs nor asks (default 60; 0: never)",
    type: "string",
    valueName: "<n>",
  },
  {
    name: "allow-host",
    description: "a host name clients use to reach the server, with :port when not the server's (repeatable)",
    type: "string[]",
    valueName: "<name>",
  },
];

export interface ServeOptions {
  port: number;
  host: string;
  /** Whether the address is reachable from other machines (not a loopback one). */
  exposed: boolean;
  tls?: { cert: string; key: string };
  /** Host names (besides the loopback ones and the bound address) that requests may name. */
  allowHosts: string[];
  /** How long a session may go unwatched, idle, before the server closes it; 0: never. */
  idleMs: number;
}

const DEFAULT_IDLE_MINUTES = 60;

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|localhost)$/;

export function isLoopback(host: string): boolean {
  return LOOPBACK.test(host);
}

/** The options given, checked; a string is the error to print (it says what to do). */
export function serveOptions(options: Record<string, unknown>): ServeOptions | string {
  const text = (name: string) => (typeof options[name] === "string" ? (options[name] as string) : undefined);
  const portText = text("port") ?? "0";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) return `--port ${portText}: give a port number from 0 to 65535`;
  const host = text("host") ?? "127.0.0.1";
  const exposed = !isLoopback(host);
  if (exposed && options.expose !== true)
    return (
      `--host ${host} lets other machines reach keel, which runs commands with your rights; ` +
      "add --expose to mean it (and --tls-cert/--tls-key for HTTPS), or leave --host out to stay on 127.0.0.1"
    );
  const cert = text("tlsCert");
  const key = text("tlsKey");
  if ((cert === undefined) !== (key === undefined)) return "--tls-cert and --tls-key go together: give both";
  const allowHosts = ((options.allowHost as string[] | undefined) ?? []).map((h) => h.toLowerCase());
  const idleText = text("idleMinutes") ?? String(DEFAULT_IDLE_MINUTES);
  const idleMinutes = Number(idleText);
  if (!/^\d+(\.\d+)?$/.test(idleText))
    return `--idle-minutes ${idleText}: give a number of minutes (0: sessions are never closed for being idle)`;
  const idleMs = Math.round(idleMinutes * 60_000);
  return { port, host, exposed, ...(cert && key && { tls: { cert, key } }), allowHosts, idleMs };
}
