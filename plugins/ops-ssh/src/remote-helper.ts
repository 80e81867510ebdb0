/**
 * The node side of the remote helper (./helper-script.ts): starts it over an exec channel, sends requests and
 * matches answers by id. An answer's error comes back as `HelperError` (an OS error with Node's `code`) or
 * `HelperRefusal` (a path the helper will not use, which the backend turns into a PathAccessError for the path
 * the caller gave). When the channel ends, every request still waiting fails with why.
 */
import type { Client, ClientChannel } from "ssh2";
import { HELPER_SCRIPT } from "./helper-script.ts";
import { shellQuote } from "./shell-quote.ts";

export class HelperError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export class HelperRefusal extends Error {}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type Answer =
  | { id: number; ok: unknown }
  | { id: number; err: { code?: string; message?: string; refused?: string } }
  | { ready: { pid: number } };

export class RemoteHelper {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();
  private lost: string | undefined;

  private constructor(
    private readonly channel: ClientChannel,
    /** The helper's pid on the remote host: its descriptors are `/proc/<pid>/fd/<n>` there. */
    readonly pid: number,
  ) {}

  /** Starts the helper; each request names the root it works under. */
  static start(client: Client, where: string): Promise<RemoteHelper> {
    const script = Buffer.from(HELPER_SCRIPT);
    const boot =
      `read(STDIN, $s, ${script.length}) == ${script.length} or die "keel: short helper script\\n"; ` +
      `eval $s; die $@ if $@;`;
    return new Promise((resolve, reject) => {
      client.exec(`exec perl -e ${shellQuote(boot)}`, (error, channel) => {
        if (error) return reject(new Error(`Could not start keel's helper on ${where}: ${error.message}`));
        let buffer = "";
        let stderr = "";
        let helper: RemoteHelper | undefined;
        channel.stderr.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-2000)));
        channel.on("data", (chunk: Buffer) => {
          buffer += chunk.toString("utf8");
          let end: number;
          while ((end = buffer.indexOf("\n")) !== -1) {
            const answer = JSON.parse(buffer.slice(0, end)) as Answer;
            buffer = buffer.slice(end + 1);
            if ("ready" in answer) resolve((helper = new RemoteHelper(channel, answer.ready.pid)));
            else helper?.settle(answer);
          }
        });
        channel.on("close", (code: number | null) => {
          const said = stderr.trim() ? `: ${stderr.trim()}` : code !== null ? ` (exit ${code})` : "";
          const why = /perl: (command )?not found|No such file/.test(stderr)
            ? `perl is not installed on ${where}; keel's ssh backend needs it (Debian: apt-get install perl-base)`
            : `keel's helper on ${where} stopped${said}`;
          if (!helper) reject(new Error(why));
          else helper.fail(why);
        });
        channel.write(script);
      });
    });
  }

  /** Why the helper is gone, once it is. */
  get gone(): string | undefined {
    return this.lost;
  }

  request<T>(op: string, args: Record<string, unknown> = {}): Promise<T> {
    if (this.lost) return Promise.reject(new Error(this.lost));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.channel.write(`${JSON.stringify({ id, op, ...args })}\n`);
    });
  }

  /** Sends a request whose answer nobody waits for (closing a descriptor). */
  post(op: string, args: Record<string, unknown>): void {
    this.request(op, args).catch(() => {});
  }

  close(): void {
    this.channel.end();
  }

  private settle(answer: Answer): void {
    if (!("id" in answer)) return;
    const waiter = this.waiting.get(answer.id);
    this.waiting.delete(answer.id);
    if (!waiter) return;
    if ("ok" in answer) return waiter.resolve(answer.ok);
    const { refused, code, message } = answer.err;
    if (refused !== undefined) waiter.reject(new HelperRefusal(refused));
    else waiter.reject(new HelperError(message ?? "the remote helper failed", code ?? "EIO"));
  }

  private fail(why: string): void {
    this.lost = why;
    for (const waiter of this.waiting.values()) waiter.reject(new Error(why));
    this.waiting.clear();
  }
}
