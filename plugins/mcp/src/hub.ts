/**
 * The session's MCP servers and the keel tools they offer. Tool lists come from the cache until a server has
 * started, then from the server; each list is checked against the approved definition hashes (a changed
 * definition is held, not offered, until the user approves it), recorded, and turned into registered tools —
 * one by one, or, above the search threshold, only those `mcp_search` has chosen.
 */
import type { Runtime, SlashCommand, Tool } from "@keel/extensions-api";
import { ignoredFields, ServerConnection } from "./connection.ts";
import { hashOf, type KnownTool, type McpPrompt } from "./definition.ts";
import { lazyModules } from "./lazy-modules.ts";
import { mcpToolName } from "./names.ts";
import type { ServerConfig } from "./servers.ts";
import type { McpSettings } from "./settings.ts";
import { changedTools, type ServerStore } from "./store.ts";
import { definitionBytes, keelTool } from "./tools.ts";

export interface HubDeps {
  settings: McpSettings;
  store: ServerStore;
  cwd: string;
  keelHome: string;
  registerTool(tool: Tool): () => void;
  registerCommand(command: SlashCommand): () => void;
  /** The command that runs one of a server's prompts. */
  promptCommand(hub: McpHub, server: string, prompt: McpPrompt): SlashCommand;
  /** The running session, once it has started (asking and notices need it). */
  runtime(): Runtime | undefined;
  warn(message: string): void;
  /** The `mcp_search` tool, registered only while the tools are behind it. */
  searchTool(hub: McpHub): Tool;
  /** Keeps tools `mcp_search` chose in the session, so a resumed session can still call them. */
  rememberChosen(names: string[]): void;
}

/** A tool the hub knows: which server, its definition, and the name the model calls it by. */
export interface OfferedTool {
  server: string;
  name: string;
  tool: KnownTool;
}

export function configHash(config: ServerConfig): string {
  return hashOf(config, 16);
}

/** The hash of an entry as written (key order aside), which the start path compares without checking it. */
export function entryHash(entry: unknown): string {
  return hashOf(entry, 16);
}

export class McpHub {
  readonly connections = new Map<string, ServerConnection>();
  /** Per server: what it lists that may be offered, and what is held for approval. */
  private readonly lists = new Map<string, { tools: KnownTool[]; held: KnownTool[] }>();
  private readonly registered = new Map<string, { tool: KnownTool; remove: () => void }>();
  /** Tools `mcp_search` made callable (by keel name), for the rest of the session. */
  private chosen = new Set<string>();
  private readonly asked = new Set<string>();
  private removeSearch: (() => void) | undefined;
  private readonly commands = new Map<string, () => void>();
  private readonly pendingAsks: { server: string; tools: KnownTool[] }[] = [];

  constructor(private readonly deps: HubDeps) {}

  /**
   * Adds servers (their entries as written) and offers each one's cached list; resolves those that have none
   * (they must start to be known). An entry the cache knows is offered unchecked (it connected before and is
   * checked when the server starts); another is checked now, and one that is not a server is reported by name.
   * A name already taken keeps its first server.
   */
  async add(entries: Record<string, unknown>): Promise<string[]> {
    const unknown: string[] = [];
    for (const [name, entry] of Object.entries(entries)) {
      if (this.connections.has(name)) {
        this.deps.warn(`MCP server "${name}" is configured twice; the first one is used.`);
        continue;
      }
      const state = this.deps.store.get(name);
      const cached = state?.entryHash !== undefined && state.entryHash === entryHash(entry);
      let config: ServerConfig | undefined;
      if (!cached) {
        const parsed = (await lazyModules.servers()).parseServer(name, entry);
        if (!parsed.ok) {
          this.deps.warn(parsed.error);
          continue;
        }
        if (parsed.ignored.length > 0) this.deps.warn(ignoredFields(name, parsed.ignored));
        config = parsed.config;
      }
      const connection = new ServerConnection(
        name,
        entry as Record<string, unknown>,
        config,
        this.deps.settings,
        this.deps.cwd,
        this.deps.keelHome,
        {
          tools: (tools, problems) => {
            for (const problem of problems) this.deps.warn(`MCP server "${name}": ${problem}`);
            this.listed(name, tools);
          },
          prompts: (prompts) => this.promptsListed(name, prompts),
          problem: (message) => this.tell(message),
          notice: (message) => this.tell(message, "info"),
          runtime: () => this.deps.runtime(),
        },
      );
      this.connections.set(name, connection);
      if (cached) {
        this.apply(name, state.tools, state.approved);
        this.offerPrompts(name, state.prompts);
      } else unknown.push(name);
    }
    this.sync();
    return unknown;
  }

  /** The entries of `entries` not already here as they are (a client passing its servers again adds nothing). */
  newEntries(entries: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(entries).filter(([name, entry]) => {
        const known = this.connections.get(name);
        return !known || entryHash(known.entry) !== entryHash(entry);
      }),
    );
  }

  /** A server listed its tools: record them (a first connection approves what it finds), hold what changed. */
  private listed(server: string, tools: KnownTool[]): void {
    const connection = this.connections.get(server)!;
    // Listing follows a start, which checked the entry.
    const hash = configHash(connection.config!);
    let approved: Record<string, string> = {};
    this.deps.store.update(server, (state) => {
      const previous = state && state.configHash === hash ? state.approved : undefined;
      approved = { ...previous };
      // A tool not approved before (a first connection, or a tool added later) is recorded as approved; a
      // changed definition keeps the old hash until the user approves the new one.
      for (const tool of tools) approved[tool.name] ??= tool.hash;
      const entry = entryHash(connection.entry);
      return { configHash: hash, entryHash: entry, tools, approved, prompts: state?.prompts ?? [] };
    });
    this.apply(server, tools, approved);
    this.sync();
  }

  private promptsListed(server: string, prompts: McpPrompt[]): void {
    this.deps.store.update(server, (state) => state && { ...state, prompts });
    this.offerPrompts(server, prompts);
  }

  /** Registers `/mcp:<server>:<prompt>` for each prompt, removing the server's commands that are gone. */
  private offerPrompts(server: string, prompts: McpPrompt[]): void {
    const prefix = `${server}\0`;
    for (const [key, remove] of this.commands)
      if (key.startsWith(prefix) && !prompts.some((p) => key === prefix + p.name)) {
        remove();
        this.commands.delete(key);
      }
    for (const prompt of prompts) {
      const key = prefix + prompt.name;
      this.commands.get(key)?.();
      this.commands.set(key, this.deps.registerCommand(this.deps.promptCommand(this, server, prompt)));
    }
  }

  private apply(server: string, tools: KnownTool[], approved: Record<string, string>): void {
    const held = changedTools(tools, approved);
    this.lists.set(server, { tools: tools.filter((t) => !held.includes(t)), held });
    const fresh = held.filter((t) => !this.asked.has(`${server}\0${t.name}\0${t.hash}`));
    if (fresh.length === 0) return;
    for (const t of fresh) this.asked.add(`${server}\0${t.name}\0${t.hash}`);
    this.pendingAsks.push({ server, tools: fresh });
    void this.askPending();
  }

  /** Asks the user about held tools once a session can ask; without a UI they stay held, with a notice. */
  async askPending(): Promise<void> {
    const runtime = this.deps.runtime();
    if (!runtime) return;
    for (const { server, tools } of this.pendingAsks.splice(0)) {
      const names = tools.map((t) => t.name).join(", ");
      const answer = await runtime.ask({
        kind: "confirm",
        title:
          `MCP server "${server}" changed ${tools.length === 1 ? "a tool" : "tools"} ` +
          `since you approved it: ${names}`,
        message: tools.map((t) => `${t.name}: ${t.description ?? "(no description)"}`).join("\n"),
      });
      if (answer?.kind === "confirm" && answer.confirmed)
        this.approve(
          server,
          tools.map((t) => t.name),
        );
      else
        this.tell(
          `MCP server "${server}" changed ${names} since you approved it; ` +
            `held until you approve (${runtime.app.command} mcp approve ${server}).`,
        );
    }
  }

  /** Approves the current definitions of `tools` (all the server's when omitted). */
  approve(server: string, tools?: string[]): void {
    const connection = this.connections.get(server);
    this.deps.store.update(server, (state) => {
      if (!state) return state;
      const approved = { ...state.approved };
      for (const tool of state.tools) if (!tools || tools.includes(tool.name)) approved[tool.name] = tool.hash;
      return { ...state, approved };
    });
    const state = this.deps.store.get(server);
    if (connection && state) {
      this.apply(server, state.tools, state.approved);
      this.sync();
    }
  }

  /** Every tool that may be offered, with the name the model calls it by (unique within this plugin). */
  catalogue(): OfferedTool[] {
    const out: OfferedTool[] = [];
    const taken = new Set<string>();
    for (const [server, list] of this.lists) {
      for (const tool of list.tools) {
        let name = mcpToolName(server, tool.name);
        for (let n = 2; taken.has(name); n++) name = `${name.slice(0, 60)}_${n}`;
        taken.add(name);
        out.push({ server, name, tool });
      }
    }
    return out;
  }

  /** Makes tools `mcp_search` found callable for the rest of the session, and keeps that in the session. */
  choose(names: string[]): void {
    const fresh = names.filter((name) => !this.chosen.has(name));
    for (const name of fresh) this.chosen.add(name);
    if (fresh.length > 0) this.deps.rememberChosen(fresh);
    this.sync();
  }

  /** The tools chosen on the session's active branch (after a resume, a jump in the tree, a fork). */
  restoreChosen(names: string[]): void {
    this.chosen = new Set(names);
    this.sync();
  }

  get chosenCount(): number {
    return this.chosen.size;
  }

  held(server: string): KnownTool[] {
    return this.lists.get(server)?.held ?? [];
  }

  /** Whether the tools are too many or too large to send one by one. */
  searchMode(): boolean {
    const all = this.catalogue();
    const bytes = all.reduce((sum, t) => sum + definitionBytes(t.tool), 0);
    return all.length > this.deps.settings.searchAboveTools || bytes > this.deps.settings.searchAboveBytes;
  }

  /** Registers what should be offered now and removes what should not. */
  sync(): void {
    const search = this.searchMode();
    if (search && !this.removeSearch) this.removeSearch = this.deps.registerTool(this.deps.searchTool(this));
    if (!search && this.removeSearch) {
      this.removeSearch();
      this.removeSearch = undefined;
    }
    const wanted = new Map(
      this.catalogue()
        .filter((t) => !search || this.chosen.has(t.name))
        .map((t) => [t.name, t]),
    );
    for (const [name, entry] of this.registered) {
      const now = wanted.get(name);
      if (now && now.tool.hash === entry.tool.hash) continue;
      entry.remove();
      this.registered.delete(name);
    }
    for (const [name, offered] of wanted) {
      if (this.registered.has(name)) continue;
      const caller = {
        callTool: (args: Record<string, unknown>, signal: AbortSignal) => this.call(offered, args, signal),
      };
      const remove = this.deps.registerTool(keelTool(name, offered.server, offered.tool, caller));
      this.registered.set(name, { tool: offered.tool, remove });
    }
  }

  /**
   * Runs a call, unless starting the server showed that the tool's definition is no longer the one the model
   * was offered (changed and held, or gone): then nothing runs and the model is told why.
   */
  private async call(offered: OfferedTool, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const connection = this.connections.get(offered.server)!;
    await connection.ensure();
    const { server, tool } = offered;
    if (this.held(server).some((t) => t.name === tool.name))
      return refusal(
        `The MCP tool "${tool.name}" of "${server}" changed since the user approved it, so it is held and was ` +
          `not run. The user can approve it with: ${this.deps.runtime()?.app.command ?? "keel"} mcp approve ${server}`,
      );
    const current = this.lists.get(server)?.tools.find((t) => t.name === tool.name);
    if (!current) return refusal(`The MCP server "${server}" no longer offers "${tool.name}"; nothing was run.`);
    return connection.callTool(tool.name, args, signal);
  }

  /** Starts the servers that have no cached list, in parallel; a failure is already reported by name. */
  async startUnknown(names: string[]): Promise<void> {
    await Promise.all(
      names.map((name) =>
        this.connections
          .get(name)!
          .ensure()
          .catch(() => undefined),
      ),
    );
  }

  async stop(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
  }

  private tell(message: string, level: "info" | "warning" = "warning"): void {
    const runtime = this.deps.runtime();
    if (runtime) runtime.notify(message, level);
    else this.deps.warn(message);
  }
}

/** A call result, in MCP's own shape, that tells the model why nothing ran. */
function refusal(text: string) {
  return { content: [{ type: "text", text }], isError: true };
}
