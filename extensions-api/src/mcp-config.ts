/**
 * MCP configurations as other clients write them (`@keel/extensions-api/mcp-config`: the host reads a project's
 * `.mcp.json` with it, the MCP plugin a plugin's and every server's entry): `{ "mcpServers": { … } }` or the
 * flat form that lists the servers at the top (`{ "github": { "type": "http", "url": … } }`, as many plugins'
 * `.mcp.json` do), and `${VAR}` / `${VAR:-default}` in any string of an entry (command, args, env, url,
 * headers), taken from the environment when the server starts.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** An entry looks like a server: it says how to reach one. */
const looksLikeServer = (value: unknown) =>
  isObject(value) && (typeof value.command === "string" || typeof value.url === "string");

/** The servers a configuration file holds, in either form, or why it holds none. */
export function mcpServersOf(value: unknown): { servers: Json } | { problem: string } {
  if (!isObject(value)) return { problem: "it is not a JSON object" };
  if ("mcpServers" in value) {
    if (isObject(value.mcpServers)) return { servers: value.mcpServers };
    return { problem: '"mcpServers" is not an object of server name → entry' };
  }
  const entries = Object.entries(value);
  if (entries.length > 0 && entries.every(([, entry]) => looksLikeServer(entry))) return { servers: value };
  if (entries.length === 0) return { servers: {} };
  return { problem: 'it has no "mcpServers" object, and its keys are not servers ({ command } or { url })' };
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Every string of `entry` with its variables filled from `env`; `missing` names those neither set nor given a
 * default (Claude Code refuses to start such a server, and so should the caller).
 */
export function expandVariables(
  entry: unknown,
  env: Readonly<Record<string, string | undefined>>,
): { entry: unknown; missing: string[] } {
  const missing = new Set<string>();
  const walk = (value: unknown): unknown => {
    if (typeof value === "string")
      return value.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
        const set = env[name];
        if (set !== undefined && set !== "") return set;
        if (fallback !== undefined) return fallback;
        if (set === undefined) missing.add(name);
        return "";
      });
    if (Array.isArray(value)) return value.map(walk);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return { entry: walk(entry), missing: [...missing] };
}
