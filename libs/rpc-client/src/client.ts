/**
 * A typed client for keel's RPC protocol: starts `keel --mode rpc` as a child process (or talks over any pair of
 * streams), or connects to a session of `keel serve` over a WebSocket; sends requests with their own ids and
 * resolves each with its response's data, hands every event to subscribers, and answers the questions plugins
 * ask through a handler. What other programs embed keel with, and what keel's own tests drive it through.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { stdioLink } from "./stdio-link.ts";
import { openSocketLink, type ConnectOptions, type LinkFactory, type RpcLink } from "./socket-link.ts";
import type {
  RpcCommandName,
  RpcEvent,
  RpcOutput,
  RpcRequestOf,
  RpcResponse,
  RpcResults,
  RpcUiClosed,
  RpcUiRequest,
  RpcUiResponse,
  RpcWelcome,
} from "./protocol.ts";

/** A failed command: keel's `error` text, with the command it answers. */
export class RpcError extends Error {
  constructor(
    readonly command: string,
    message: string,
  ) {
    super(`${command}: ${message}`);
    this.name = "RpcError";
  }
}

/** How to answer a question: the answer, or undefined to answer nothing (the asking plugin takes its default). */
export type UiAnswer = Omit<RpcUiResponse, "type" | "id"> | undefined;

export interface SpawnOptions {
  /** The program to run; default `keel` on the PATH. */
  command?: string;
  /** Arguments before `--mode rpc` (a script path for `node`, flags such as `--provider`). */
  args?: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Where keel's stderr (its logs and warnings) goes; default `inherit`. `pipe` leaves `child.stderr` to the
   * caller, who must read it: an unread pipe fills and stops keel.
   */
  stderr?: "inherit" | "ignore" | "pipe";
}

type EventHandler = (event: RpcEvent) => void;
type UiHandler = (request: RpcUiRequest) => UiAnswer | Promise<UiAnswer>;

export class RpcClient {
  /** Lines on keel's stdout that were not protocol messages (there should be none). */
  readonly stray: string[] = [];
  private nextId = 1;
  private readonly pending = new Map<string, { resolve(data: unknown): void; reject(error: Error): void }>();
  private readonly handlers = new Set<EventHandler>();
  /** Unset on a socket: questions are left to the session's other clients until a handler is given. */
  private uiHandler: UiHandler | undefined;
  private readonly welcomes = new Set<(welcome: RpcWelcome) => void>();
  private readonly unanswered = new Map<string, RpcUiRequest>();
  /** The `seq` of the last event or question received from `keel serve`; replays stop short of it. */
  private lastSeq: number | undefined;
  private readonly link: RpcLink;
  /** Every response without a pending request (one to a line sent with `sendLine`). */
  private readonly orphans: RpcResponse[] = [];
  private readonly orphanWaiters = new Set<(response: RpcResponse) => void>();
  private closedError: Error | undefined;

  /** Talks to keel over `input` (its stdin) and `output` (its stdout), or over the link `input` makes. */
  constructor(
    input: Writable | LinkFactory,
    output?: Readable,
    /** The child process, when the client started one. */
    readonly child?: ChildProcess,
  ) {
    const stdio = typeof input !== "function";
    // On stdio keel has no other client: a question nobody handles is cancelled at once.
    if (stdio) this.uiHandler = () => ({ cancelled: true });
    this.link = (stdio ? stdioLink(input, output!) : input)({
      receive: (text) => this.receive(text),
      lost: (error) => this.rejectPending(error),
      closed: (error) => this.fail(error),
      lastSeq: () => this.lastSeq,
    });
  }

  /**
   * Connects to a session of `keel serve` over a WebSocket. `address` is what the server printed
   * (`http://127.0.0.1:N/?token=…`); without `options.session` a new session is opened. A connection that drops
   * is made again, resuming after the last event received: requests waiting then are rejected (they may have
   * run), no event is received twice. Needs a global `WebSocket` (Node 22 and later) or `options.WebSocket`.
   */
  static async connect(address: string, options: ConnectOptions = {}): Promise<RpcClient> {
    let client!: RpcClient;
    let welcomed!: Promise<void>;
    await openSocketLink(address, options, (factory) => {
      client = new RpcClient(factory);
      welcomed = new Promise((resolve) => {
        const off = client.onConnection(() => (off(), resolve()));
      });
    });
    await welcomed;
    return client;
  }

  /** The server's id of the session, over `keel serve`. */
  get session(): string | undefined {
    return this.sessionId;
  }
  private sessionId: string | undefined;

  /** Called on each (re)connection to `keel serve`; `resumed` false says events were missed (read the state again). */
  onConnection(handler: (welcome: RpcWelcome) => void): () => void {
    this.welcomes.add(handler);
    return () => this.welcomes.delete(handler);
  }

  /** Starts `keel --mode rpc` as a child process. */
  static spawn(options: SpawnOptions = {}): RpcClient {
    const child = spawn(options.command ?? "keel", [...(options.args ?? []), "--mode", "rpc"], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", options.stderr ?? "inherit"],
    });
    return new RpcClient(child.stdin!, child.stdout!, child);
  }

  /** Sends a command and resolves its response's `data`; rejects with an `RpcError` when it fails. */
  request<K extends RpcCommandName>(request: RpcRequestOf<K>): Promise<RpcResults[K]> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = request.id ?? `req-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (data: unknown) => void, reject });
      try {
        this.write({ ...request, id });
      } catch (error) {
        this.pending.delete(id);
        reject(error as Error);
      }
    });
  }

  /** Sends one raw message as it is (a test's malformed line); its response, if any, goes to `nextOrphan`. */
  sendLine(line: string): void {
    this.link.send(line.endsWith("\n") ? line.slice(0, -1) : line);
  }

  /** The next response no request waits for (the answer to a line sent with `sendLine`). */
  nextOrphan(): Promise<RpcResponse> {
    const ready = this.orphans.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const once = (response: RpcResponse) => {
        this.orphanWaiters.delete(once);
        resolve(response);
      };
      this.orphanWaiters.add(once);
    });
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  onEvent(handler: EventHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /** Resolves the first event of `type` (that `match` accepts) from now on. */
  waitForEvent<T extends RpcEvent["type"]>(
    type: T,
    match: (event: Extract<RpcEvent, { type: T }>) => boolean = () => true,
  ): Promise<Extract<RpcEvent, { type: T }>> {
    return new Promise((resolve, reject) => {
      if (this.closedError) return reject(this.closedError);
      const off = this.onEvent((event) => {
        if (event.type !== type || !match(event as Extract<RpcEvent, { type: T }>)) return;
        off();
        resolve(event as Extract<RpcEvent, { type: T }>);
      });
    });
  }

  /** Sends a prompt and resolves every event of the run it starts, up to and including `agent_end`. */
  async run(message: string): Promise<RpcEvent[]> {
    const events: RpcEvent[] = [];
    const off = this.onEvent((e) => events.push(e));
    try {
      const end = this.waitForEvent("agent_end");
      await this.request({ type: "prompt", message });
      await end;
      return events;
    } finally {
      off();
    }
  }

  /**
   * Sets how questions plugins ask (`extension_ui_request`) are answered. By default, on stdio each is cancelled;
   * on a socket none is answered, so the session's other clients may.
   */
  onUiRequest(handler: UiHandler): void {
    this.uiHandler = handler;
    for (const question of this.unanswered.values()) void this.ask(question);
  }

  /** Closes keel's stdin, which ends it (or the socket); resolves its exit code when the client started it. */
  async close(): Promise<number | null> {
    this.link.end();
    const child = this.child;
    if (!child) return null;
    if (child.exitCode !== null) return child.exitCode;
    return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  private write(message: object): void {
    this.link.send(JSON.stringify(message));
  }

  private receive(line: string): void {
    let message: RpcOutput;
    try {
      message = JSON.parse(line) as RpcOutput;
    } catch {
      this.stray.push(line);
      return;
    }
    if (typeof message !== "object" || message === null || typeof message.type !== "string") {
      this.stray.push(line);
      return;
    }
    if (message.type === "response") return this.answer(message as RpcResponse);
    if (message.type === "welcome") return this.welcome(message as RpcWelcome);
    const seq = (message as { seq?: unknown }).seq;
    if (typeof seq === "number") {
      if (this.lastSeq !== undefined && seq <= this.lastSeq) return;
      this.lastSeq = seq;
    }
    if (message.type === "extension_ui_closed") return void this.unanswered.delete((message as RpcUiClosed).id);
    if (message.type === "extension_ui_request") return void this.ask(message as RpcUiRequest);
    for (const handler of [...this.handlers]) handler(message as RpcEvent);
  }

  private answer(response: RpcResponse): void {
    const waiting = response.id === undefined ? undefined : this.pending.get(response.id);
    if (!waiting) {
      const [waiter] = this.orphanWaiters;
      if (waiter) waiter(response);
      else this.orphans.push(response);
      return;
    }
    this.pending.delete(response.id!);
    if (response.success) waiting.resolve(response.data);
    else waiting.reject(new RpcError(response.command, response.error));
  }

  private welcome(welcome: RpcWelcome): void {
    this.sessionId = welcome.session;
    // Not resumed: what came before is not replayed, so numbering starts again from the server's.
    if (!welcome.resumed) this.lastSeq = welcome.seq;
    for (const handler of [...this.welcomes]) handler(welcome);
    for (const question of welcome.questions ?? []) void this.ask(question);
  }

  private async ask(request: RpcUiRequest): Promise<void> {
    const handler = this.uiHandler;
    // On a socket, a question waits here until a handler is set (or another client answers it).
    if (!handler) return void this.unanswered.set(request.id, request);
    this.unanswered.delete(request.id);
    let answer: UiAnswer;
    try {
      answer = await handler(request);
    } catch {
      answer = undefined;
    }
    try {
      this.write({ type: "extension_ui_response", id: request.id, ...(answer ?? { cancelled: true }) });
    } catch {
      // The link dropped: the question is still open after reconnecting, and replayed only if it was missed.
    }
  }

  private fail(error: Error): void {
    this.closedError = error;
    this.rejectPending(error);
  }

  private rejectPending(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
