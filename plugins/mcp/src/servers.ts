/**
 * A server's entry in `mcpServers` (top level, in the format Claude Code and other clients use, so a block
 * copied from their docs works): stdio, Streamable HTTP or the older HTTP+SSE, with `${VAR}` and
 * `${VAR:-default}` filled from the environment when it is checked. Fields keel does not use are dropped and
 * named once (a `description` is just text), so another client's entry is not refused for them.
 * Loaded when an entry must be checked: one the cache does not know, a server starting, or `keel mcp`; a cached
 * server's tools are offered without it.
 */
import { z } from "@keel/extensions-api";
import { expandVariables } from "@keel/extensions-api/mcp-config";

const stringMap = z.record(z.string(), z.string());

/** A server keel starts as a child process and talks to over stdin/stdout. */
export const StdioServerSchema = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  cwd: z.string().optional(),
});

/**
 * How keel signs in to an HTTP server that asks for OAuth. Nothing is needed for a server that registers
 * clients itself (the browser step then asks the user); a pre-registered client gives its id (and secret),
 * and a machine-to-machine server the client_credentials grant.
 */
export const OAuthSchema = z.object({
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
  /** The port of the sign-in callback on 127.0.0.1 (Claude Code's name), for a client registered with it. */
  callbackPort: z.number().int().min(1).max(65535).optional(),
});

/** A server already running somewhere, reached over Streamable HTTP (or the older HTTP+SSE: `sse`). */
export const HttpServerSchema = z.object({
  type: z.enum(["http", "streamable-http", "sse"]).optional(),
  url: z.url(),
  headers: stringMap.default({}),
  oauth: OAuthSchema.optional(),
});

export const ServerConfigSchema = z.union([StdioServerSchema, HttpServerSchema]);
export type ServerConfig = z.output<typeof ServerConfigSchema>;
export type StdioServerConfig = z.output<typeof StdioServerSchema>;
export type HttpServerConfig = z.output<typeof HttpServerSchema>;
export type OAuthConfig = Partial<z.output<typeof OAuthSchema>>;

/** The fields each form uses; any other is named once as not honoured. `description` is text for people. */
const KNOWN = {
  stdio: ["type", "command", "args", "env", "cwd", "description"],
  http: ["type", "url", "headers", "oauth", "description"],
  oauth: [...Object.keys(OAuthSchema.shape)],
};

/**
 * Reads one server's entry with its variables filled from `env`, or says what is wrong with it. `ignored`
 * names the fields keel does not use.
 */
export function parseServer(
  name: string,
  raw: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
): { ok: true; config: ServerConfig; ignored: string[] } | { ok: false; error: string } {
  const { entry, missing } = expandVariables(raw, env);
  if (missing.length > 0)
    return {
      ok: false,
      error:
        `MCP server "${name}" needs ${missing.map((v) => `$${v}`).join(", ")}, which is not set; set it or give ` +
        `a default (\${${missing[0]}:-value}). The other servers still run.`,
    };
  const parsed = ServerConfigSchema.safeParse(entry);
  if (!parsed.success)
    return {
      ok: false,
      error:
        `MCP server "${name}" in mcpServers is not { command, args, env, cwd } nor { url, headers }: ` +
        `${z.prettifyError(parsed.error).replaceAll("\n", " ")}. Fix or remove it; the other servers still run.`,
    };
  const fields = entry as Record<string, unknown>;
  const known = "url" in parsed.data ? KNOWN.http : KNOWN.stdio;
  const ignored = Object.keys(fields).filter((key) => !known.includes(key));
  const oauth = fields.oauth as Record<string, unknown> | undefined;
  if (oauth)
    ignored.push(
      ...Object.keys(oauth)
        .filter((key) => !KNOWN.oauth.includes(key))
        .map((key) => `oauth.${key}`),
    );
  return { ok: true, config: parsed.data, ignored };
}
