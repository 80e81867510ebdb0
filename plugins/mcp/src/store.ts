/**
 * What keel remembers of each server between sessions, in `$KEEL_HOME/mcp/servers.json`: the tools it listed
 * last (so the first request can offer them before any server starts) and the definition hashes the user
 * approved. Written whole through a temporary file and a rename, so a crash never leaves half a file.
 *
 * Read on every start with servers configured, so it is checked by hand rather than with a zod schema (whose
 * first parse costs milliseconds): a server whose state is not the shape written here counts as unknown, which
 * only means that it starts once to list its tools again.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { KnownTool, McpPrompt } from "./definition.ts";

export interface ServerState {
  /** Hash of the server's checked settings entry: approvals carry over while it is the same server. */
  configHash: string;
  /** Hash of the entry as written, so the start path can tell a cached list is this entry's without checking it. */
  entryHash?: string;
  tools: KnownTool[];
  /** Its prompts, so their commands exist before the server starts. */
  prompts: McpPrompt[];
  /** Tool name → the definition hash the user approved (the first connection approves what it finds). */
  approved: Record<string, string>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isTool = (value: unknown): value is KnownTool =>
  isObject(value) && typeof value.name === "string" && typeof value.hash === "string" && isObject(value.inputSchema);

const isPrompt = (value: unknown): value is McpPrompt =>
  isObject(value) &&
  typeof value.name === "string" &&
  (value.arguments === undefined || Array.isArray(value.arguments));

/** One server's state as written by `update`, or undefined when it is not. */
function readState(value: unknown): ServerState | undefined {
  if (!isObject(value) || typeof value.configHash !== "string" || !isObject(value.approved)) return undefined;
  if (!Array.isArray(value.tools) || !value.tools.every(isTool)) return undefined;
  if (!Object.values(value.approved).every((hash) => typeof hash === "string")) return undefined;
  const prompts = Array.isArray(value.prompts) ? value.prompts.filter(isPrompt) : [];
  const entryHash = typeof value.entryHash === "string" ? value.entryHash : undefined;
  return {
    configHash: value.configHash,
    entryHash,
    tools: value.tools,
    prompts,
    approved: value.approved as Record<string, string>,
  };
}

export class ServerStore {
  readonly file: string;
  private read: Record<string, ServerState> | undefined;

  constructor(keelHome: string) {
    this.file = join(keelHome, "mcp", "servers.json");
  }

  /**
   * Every server's state, read once; a missing or unreadable file is an empty one (it is only a cache and
   * approvals). `update` reads it again before writing.
   */
  all(): Record<string, ServerState> {
    this.read ??= this.load();
    return this.read;
  }

  private load(): Record<string, ServerState> {
    const servers: Record<string, ServerState> = {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, "utf8"));
      if (!isObject(parsed) || parsed.version !== 1 || !isObject(parsed.servers)) return servers;
      for (const [name, value] of Object.entries(parsed.servers)) {
        const state = readState(value);
        if (state) servers[name] = state;
      }
    } catch {
      // No cache yet, or not JSON: every server is unknown.
    }
    return servers;
  }

  get(server: string): ServerState | undefined {
    return this.all()[server];
  }

  /** Reads, changes and writes one server's state (read again each time: another session may have written). */
  update(server: string, change: (state: ServerState | undefined) => ServerState | undefined): void {
    const servers = this.load();
    const next = change(servers[server]);
    if (next) servers[server] = next;
    else delete servers[server];
    mkdirSync(join(this.file, ".."), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, servers }, null, 2)}\n`);
    renameSync(tmp, this.file);
    this.read = servers;
  }
}

/** The tools of `listed` whose definition differs from the approved one: held until approved again. */
export function changedTools(listed: readonly KnownTool[], approved: Record<string, string>): KnownTool[] {
  return listed.filter((tool) => approved[tool.name] !== undefined && approved[tool.name] !== tool.hash);
}
