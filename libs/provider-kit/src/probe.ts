/**
 * Whether a provider's endpoint can be reached, checked at start so an unreachable server is shown before the
 * first message: a TCP connection to the base URL's host and port, closed as soon as it opens. Nothing is
 * sent, so nothing is billed and no key leaves the machine; a refused connection, a name that does not
 * resolve and no answer within the time limit are each told with what to check.
 */
import { connect, type LookupFunction } from "node:net";

/** How long the probe waits for the connection: short, because a UI shows its answer while it waits. */
export const PROBE_TIMEOUT_MS = 1500;

export interface ProbeTarget {
  /** The provider's id, as settings name it (`providers.<id>.baseUrl`). */
  id: string;
  /** Names the provider in the message. */
  label: string;
  baseUrl: string;
  /** The environment variable that can set the base URL, if the provider reads one. */
  baseUrlEnv?: string;
}

function why(error: NodeJS.ErrnoException, host: string): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "the connection was refused (nothing listens there)";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the host name ${host} does not resolve (DNS)`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the network has no route to it";
    default:
      return error.message;
  }
}

export interface ProbeOptions {
  timeoutMs?: number;
  /** Resolves the host name (`dns.lookup` by default); tests give their own, to stay off the network. */
  lookup?: LookupFunction;
}

/** The problem reaching `target`'s endpoint and what to check, or undefined when it answers. */
export function probeEndpoint(target: ProbeTarget, options: ProbeOptions = {}): Promise<string | undefined> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  let url: URL;
  try {
    url = new URL(target.baseUrl);
  } catch {
    return Promise.resolve(`The base URL of ${target.label} is not a URL: ${target.baseUrl}.`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const where = `${url.protocol}//${url.host}`;
  const fix =
    `check that the server runs and the address is right ` +
    `(settings providers.${target.id}.baseUrl${target.baseUrlEnv ? ` or $${target.baseUrlEnv}` : ""})`;
  return new Promise((resolve) => {
    const socket = connect({ host, port, ...(options.lookup && { lookup: options.lookup }) });
    const done = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem && `Cannot reach ${target.label} at ${where}: ${problem}; ${fix}.`);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs / 1000} s`));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error) => done(why(error, host)));
  });
}
