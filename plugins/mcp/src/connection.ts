/**
 * One MCP server for the session: started on first need, re-listed after every connect and on
 * `tools/list_changed`, restarted with backoff after a crash, stopped (its whole process group) with the
 * session. The SDK, and the check of the server's settings entry, load on the first start, so a session that
 * never uses a server loads neither.
 */
import { join } from "node:path";
import type { Runtime } from "@keel/extensions-api";
import type { Client, StreamableHTTPClientTransport, Transport } from "@modelcontextprotocol/client";
import type { KnownTool, McpPrompt } from "./definition.ts";
import { lazyModules } from "./lazy-modules.ts";
import type { ServerAuth } from "./oauth.ts";
import type { HttpServerConfig, ServerConfig } from "./servers.ts";
import type { McpSettings } from "./settings.ts";
import { safePart } from "./names.ts";

export type ServerStatus = "idle" | "starting" | "ready" | "restarting" | "failed" | "stopped";

export interface ConnectionEvents {
  /** A fresh tool list (after connecting, or after `tools/list_changed`). */
  tools(tools: KnownTool[], problems: string[]): void;
  /** A fresh prompt list (after connecting, or after `prompts/list_changed`). */
  prompts(prompts: McpPrompt[]): void;
  /** The server failed to start, crashed for good, or another problem worth telling the user. */
  problem(message: string): void;
  /** Something the user must do or know (sign in to a server). */
  notice(message: string): void;
  /** The running session, for what a server asks of the user or the model. */
  runtime(): Runtime | undefined;
}

/** Backoff before restart number `n` (0-based): 0.5 s, 1 s, 2 s, … at most 8 s. */
export const restartDelay = (n: number) => Math.min(500 * 2 ** n, 8_000);

type HttpTransport = StreamableHTTPClientTransport;

/** Long enough for slow tools: keel's own tool deadline (via the call's signal) is the one that counts. */
const CALL_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export class ServerConnection {
  status: ServerStatus = "idle";
  lastError: string | undefined;
  /** The protocol revision negotiated on the current connection. */
  protocolVersion: string | undefined;
  readonly logFile: string;
  private client: Client | undefined;
  private starting: Promise<Client> | undefined;
  private restarts = 0;
  private stopping = false;
  private listing: Awaited<ReturnType<typeof lazyModules.listing>> | undefined;
  private requests: Awaited<ReturnType<typeof lazyModules.requests>> | undefined;
  private auth: ServerAuth | undefined;
  private transportInUse: Transport | undefined;

  /**
   * `config` is the checked entry, or undefined when the cache vouched for `entry` (the same entry connected
   * before): it is checked when the server first starts.
   */
  constructor(
    readonly name: string,
    readonly entry: Record<string, unknown>,
    public config: ServerConfig | undefined,
    private readonly settings: McpSettings,
    private readonly cwd: string,
    private readonly keelHome: string,
    private readonly on: ConnectionEvents,
  ) {
    this.logFile = join(keelHome, "mcp", "logs", `${safePart(name)}.log`);
  }

  /** The connected client, starting the server if needed. Rejects with a message naming the server. */
  ensure(): Promise<Client> {
    if (this.client && this.status === "ready") return Promise.resolve(this.client);
    if (this.stopping) return Promise.reject(new Error(`MCP server "${this.name}" was stopped with the session.`));
    if (this.status === "failed" && !this.starting)
      return Promise.reject(new Error(`MCP server "${this.name}" is not running: ${this.lastError}`));
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(): Promise<Client> {
    this.status = this.restarts > 0 ? "restarting" : "starting";
    const sdk = await lazyModules.sdk();
    this.listing ??= await lazyModules.listing();
    this.requests ??= await lazyModules.requests();
    try {
      const config = (this.config ??= await this.checkedEntry());
      this.auth?.close();
      this.auth = "url" in config ? await this.signIn(config) : undefined;
      // A sign-in ends an attempt with UnauthorizedError; the next one carries the token it got.
      for (let attempt = 0; ; attempt++) {
        const client = this.newClient(sdk.Client);
        const transport = await this.transport(config);
        try {
          await client.connect(transport, { timeout: this.settings.startTimeoutMs });
          const { tools } = await client.listTools(undefined, { timeout: this.settings.startTimeoutMs });
          this.connected(client, transport);
          this.report(tools);
          if (client.getServerCapabilities()?.prompts) await this.listPrompts(client);
          return client;
        } catch (error) {
          const signIn = this.auth && attempt < 2 && sdk.UnauthorizedError.isInstance(error);
          if (signIn) await (transport as HttpTransport).finishAuth(await this.auth!.authorized());
          await client.close().catch(() => {});
          if (!signIn) throw error;
        }
      }
    } catch (error) {
      this.auth?.close();
      const why = (error as Error).message;
      this.lastError = `${why} (its log: ${this.logFile})`;
      this.status = "failed";
      this.on.problem(`MCP server "${this.name}" did not start: ${this.lastError}. keel goes on without it.`);
      throw new Error(`MCP server "${this.name}" did not start: ${this.lastError}`);
    }
  }

  private newClient(ClientClass: typeof Client): Client {
    const listing = this.listing!;
    const requests = this.requests!;
    const client = new ClientClass(
      { name: "keel", version: "0.1.0" },
      {
        capabilities: requests.CLIENT_CAPABILITIES,
        versionNegotiation: { mode: negotiationMode(this.settings.protocol) },
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error)
                this.on.problem(
                  `MCP server "${this.name}" changed its tools but listing them failed: ${error.message}`,
                );
              else if (tools) this.report(tools);
            },
          },
          prompts: {
            onChanged: (error, prompts) => {
              if (!error && prompts) this.on.prompts(listing.knownPrompts(prompts));
            },
          },
        },
      },
    );
    requests.handleServerRequests(client, this.name, { runtime: this.on.runtime, sampling: this.settings.sampling });
    return client;
  }

  private connected(client: Client, transport: Transport): void {
    this.client = client;
    this.transportInUse = transport;
    this.status = "ready";
    this.protocolVersion = client.getNegotiatedProtocolVersion();
    this.lastError = undefined;
    client.onclose = () => this.closed(client);
  }

  private listPrompts(client: Client): Promise<void> {
    return client.listPrompts(undefined, { timeout: this.settings.startTimeoutMs }).then(
      ({ prompts }) => this.on.prompts(this.listing!.knownPrompts(prompts)),
      (error: Error) => this.on.problem(`MCP server "${this.name}" did not list its prompts: ${error.message}`),
    );
  }

  private async signIn(config: HttpServerConfig): Promise<ServerAuth> {
    const { serverAuth } = await lazyModules.oauth();
    return serverAuth(this.name, config, this.keelHome, {
      tell: (message) => this.on.notice(message),
      timeoutMs: this.settings.authTimeoutMs,
    });
  }

  /**
   * Runs a request; when the server asks for more than the token allows (a scope step-up), signs in again
   * and runs it once more.
   */
  private async authorized<T>(request: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.ensure();
    try {
      return await request(client);
    } catch (error) {
      const sdk = await lazyModules.sdk();
      if (!this.auth || !sdk.UnauthorizedError.isInstance(error)) throw error;
      await (this.transportInUse as HttpTransport).finishAuth(await this.auth.authorized());
      return request(client);
    }
  }

  /** Where the server is, for messages: its URL or its command. */
  get where(): string {
    return String(this.entry.url ?? this.entry.command);
  }

  private async checkedEntry(): Promise<ServerConfig> {
    const parsed = (await lazyModules.servers()).parseServer(this.name, this.entry);
    if (parsed.ok) {
      if (parsed.ignored.length > 0) this.on.problem(ignoredFields(this.name, parsed.ignored));
      return parsed.config;
    }
    this.status = "failed";
    this.lastError = parsed.error;
    throw new Error(parsed.error);
  }

  private report(tools: readonly unknown[]): void {
    const listed = this.listing!.knownTools(tools);
    this.on.tools(listed.tools, listed.problems);
  }

  private async transport(config: ServerConfig): Promise<Transport> {
    if ("url" in config) {
      const { SSEClientTransport, StreamableHTTPClientTransport } = await lazyModules.sdk();
      const options = {
        requestInit: { headers: config.headers },
        ...(this.auth ? { authProvider: this.auth.provider } : {}),
      };
      if (config.type === "sse") return new SSEClientTransport(new URL(config.url), options);
      return new StreamableHTTPClientTransport(new URL(config.url), options);
    }
    const { ProcessGroupStdioTransport } = await lazyModules.stdio();
    return new ProcessGroupStdioTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd ?? this.cwd,
      logFile: this.logFile,
    });
  }

  /** The connection ended without `stop()`: the server crashed. Restart with backoff, up to `maxRestarts`. */
  private closed(client: Client): void {
    if (this.client !== client || this.stopping) return;
    this.client = undefined;
    if (this.restarts >= this.settings.maxRestarts) {
      this.status = "failed";
      this.lastError = `it stopped ${this.restarts + 1} times (its log: ${this.logFile})`;
      this.on.problem(`MCP server "${this.name}" stopped and is not restarted again: ${this.lastError}.`);
      return;
    }
    const delay = restartDelay(this.restarts++);
    this.status = "restarting";
    this.on.problem(`MCP server "${this.name}" stopped unexpectedly; restarting it in ${delay} ms.`);
    const restart = new Promise<void>((resolve) => setTimeout(resolve, delay).unref()).then(() => this.start());
    this.starting = restart.finally(() => (this.starting = undefined));
    this.starting.catch(() => {});
  }

  /** Calls a tool by its MCP name. */
  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    return this.authorized((client) =>
      client.callTool({ name: tool, arguments: args }, { signal, timeout: CALL_TIMEOUT_MS }),
    );
  }

  /** Stops the server (and everything it started); the session is ending. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.auth?.close();
    const client = this.client ?? (await this.starting?.catch(() => undefined));
    this.client = undefined;
    this.status = "stopped";
    await client?.close().catch(() => {});
  }
}

function negotiationMode(protocol: McpSettings["protocol"]) {
  if (protocol === "auto") return "auto" as const;
  if (protocol === "2026-07-28") return { pin: "2026-07-28" };
  return "legacy" as const;
}

/** The one line that names the fields of a server's entry keel does not use. */
export function ignoredFields(name: string, fields: readonly string[]): string {
  return `MCP server "${name}": keel does not use ${fields.join(", ")}; the rest of its entry applies.`;
}
