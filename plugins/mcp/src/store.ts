/**
 * What keel remembers of each server between sessions, in `$KEEL_HOME/mcp/servers.json`: the tools it listed
 * last (so the first request can offer them before any server starts) and the definition hashes the user
 * approved. Written whole through a temporary file and a rename, so a crash never leaves half a file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "@keel/extensions-api";
import { McpPromptSchema, McpToolSchema, type KnownTool } from "./definition.ts";

const ServerStateSchema = z.object({
  /** Hash of the server's settings entry: a list kept for another command is not this server's. */
  configHash: z.string(),
  tools: z.array(McpToolSchema.extend({ hash: z.string() })),
  /** Its prompts, so their commands exist before the server starts. */
  prompts: z.array(McpPromptSchema).default([]),
  /** Tool name → the definition hash the user approved (the first connection approves what it finds). */
  approved: z.record(z.string(), z.string()),
});

const StateFileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), ServerStateSchema) });

export type ServerState = z.output<typeof ServerStateSchema>;

export class ServerStore {
  readonly file: string;

  constructor(keelHome: string) {
    this.file = join(keelHome, "mcp", "servers.json");
  }

  /** Every server's state; a missing or unreadable file is an empty one (it is only a cache and approvals). */
  all(): Record<string, ServerState> {
    try {
      const parsed = StateFileSchema.safeParse(JSON.parse(readFileSync(this.file, "utf8")));
      return parsed.success ? parsed.data.servers : {};
    } catch {
      return {};
    }
  }

  get(server: string): ServerState | undefined {
    return this.all()[server];
  }

  /** Reads, changes and writes one server's state (read again each time: another session may have written). */
  update(server: string, change: (state: ServerState | undefined) => ServerState | undefined): void {
    const servers = this.all();
    const next = change(servers[server]);
    if (next) servers[server] = next;
    else delete servers[server];
    mkdirSync(join(this.file, ".."), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ version: 1, servers }, null, 2)}\n`);
    renameSync(tmp, this.file);
  }
}

/** The tools of `listed` whose definition differs from the approved one: held until approved again. */
export function changedTools(listed: readonly KnownTool[], approved: Record<string, string>): KnownTool[] {
  return listed.filter((tool) => approved[tool.name] !== undefined && approved[tool.name] !== tool.hash);
}
