/**
 * Settings: the servers (`mcpServers`, top level, in the format Claude Code and other clients use, so a block
 * copied from their docs works) and the plugin's own `mcp` section (protocol, search threshold, restarts).
 */
import { z } from "@keel/extensions-api";

const stringMap = z.record(z.string(), z.string());

/** A server keel starts as a child process and talks to over stdin/stdout. */
export const StdioServerSchema = z
  .object({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: stringMap.default({}),
    cwd: z.string().optional(),
  })
  .strict();

/** A server already running somewhere, reached over Streamable HTTP. */
export const HttpServerSchema = z
  .object({
    type: z.enum(["http", "streamable-http"]).optional(),
    url: z.url(),
    headers: stringMap.default({}),
  })
  .strict();

export const ServerConfigSchema = z.union([StdioServerSchema, HttpServerSchema]);
export type ServerConfig = z.output<typeof ServerConfigSchema>;
export type StdioServerConfig = z.output<typeof StdioServerSchema>;

export const McpSettingsSchema = z
  .object({
    protocol: z
      .enum(["2025-11-25", "auto", "2026-07-28"])
      .default("2025-11-25")
      .describe(
        "MCP revision: `2025-11-25` (the initialize handshake), `auto` (probe for 2026-07-28, fall back) " +
          "or `2026-07-28` (required).",
      ),
    searchAboveTools: z
      .number()
      .int()
      .min(0)
      .default(40)
      .describe("Above this many MCP tools they are found through `mcp_search` instead of being sent one by one."),
    searchAboveBytes: z
      .number()
      .int()
      .min(0)
      .default(40_000)
      .describe("Above this many bytes of MCP tool definitions, likewise."),
    startTimeoutMs: z
      .number()
      .int()
      .positive()
      .default(30_000)
      .describe("How long a server may take to start and answer `initialize` before it counts as failed."),
    maxRestarts: z
      .number()
      .int()
      .min(0)
      .default(3)
      .describe("Restarts after a crash (with backoff) before a server is left stopped for the session."),
  })
  .prefault({});

export type McpSettings = z.output<typeof McpSettingsSchema>;

/** Reads one server's entry, or says what is wrong with it. */
export function parseServer(
  name: string,
  raw: unknown,
): { ok: true; config: ServerConfig } | { ok: false; error: string } {
  const parsed = ServerConfigSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  return {
    ok: false,
    error:
      `MCP server "${name}" in mcpServers is not { command, args, env, cwd } nor { url, headers }: ` +
      `${z.prettifyError(parsed.error).replaceAll("\n", " ")}. Fix or remove it; the other servers still run.`,
  };
}
