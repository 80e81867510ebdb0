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

/**
 * How keel signs in to an HTTP server that asks for OAuth. Nothing is needed for a server that registers
 * clients itself (the browser step then asks the user); a pre-registered client gives its id (and secret),
 * and a machine-to-machine server the client_credentials grant.
 */
export const OAuthSchema = z
  .object({
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    grant: z.enum(["authorization_code", "client_credentials"]).default("authorization_code"),
    /** client_credentials with `private_key_jwt`: the PEM private key and its algorithm. */
    privateKey: z.string().min(1).optional(),
    signingAlgorithm: z.string().min(1).optional(),
    scope: z.string().min(1).optional(),
    /** The authorization server the credentials belong to: they are sent to no other. */
    issuer: z.url().optional(),
    /** A client ID metadata document's https URL, for servers that accept one instead of registration. */
    clientMetadataUrl: z.url().optional(),
  })
  .strict();

/** A server already running somewhere, reached over Streamable HTTP. */
export const HttpServerSchema = z
  .object({
    type: z.enum(["http", "streamable-http"]).optional(),
    url: z.url(),
    headers: stringMap.default({}),
    oauth: OAuthSchema.optional(),
  })
  .strict();

export const ServerConfigSchema = z.union([StdioServerSchema, HttpServerSchema]);
export type ServerConfig = z.output<typeof ServerConfigSchema>;
export type StdioServerConfig = z.output<typeof StdioServerSchema>;
export type HttpServerConfig = z.output<typeof HttpServerSchema>;
export type OAuthConfig = Partial<z.output<typeof OAuthSchema>>;

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
