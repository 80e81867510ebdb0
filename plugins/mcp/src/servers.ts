/**
 * A server's entry in `mcpServers` (top level, in the format Claude Code and other clients use, so a block
 * copied from their docs works). Loaded when an entry must be checked: one the cache does not know, a server
 * starting, or `keel mcp`; a cached server's tools are offered without it.
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
