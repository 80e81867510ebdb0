/**
 * The MCP servers an editor passes in `session/new` and `session/load`, as entries of keel's `mcpServers`
 * format, for the MCP plugin to connect for this session (the `session_mcp_servers` event). ACP's stdio and
 * HTTP servers map one to one; its SSE transport (deprecated in MCP) is not one keel speaks, and is named.
 */
import type { McpServer } from "@agentclientprotocol/sdk";

const pairs = (list: readonly { name: string; value: string }[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ name, value }) => [name, value]));

/** The entries by server name, and what could not be taken. */
export function sessionServers(servers: readonly McpServer[]): { entries: Record<string, unknown>; skipped: string[] } {
  const entries: Record<string, unknown> = {};
  const skipped: string[] = [];
  for (const server of servers) {
    if ("type" in server && server.type === "http")
      entries[server.name] = { url: server.url, headers: pairs(server.headers) };
    else if ("command" in server)
      entries[server.name] = { command: server.command, args: [...server.args], env: pairs(server.env) };
    else skipped.push(`${server.name} (${"type" in server ? server.type : "unknown"} transport)`);
  }
  return { entries, skipped };
}
