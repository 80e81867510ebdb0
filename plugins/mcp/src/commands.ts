/** What `/mcp` shows: the servers, their state, protocol revision and tools, and what is held for approval. */
import type { McpHub } from "./hub.ts";

export function describeServers(hub: McpHub, command = "keel"): string {
  const catalogue = hub.catalogue();
  const lines: string[] = [];
  for (const [name, connection] of hub.connections) {
    const protocol = connection.protocolVersion ? `, protocol ${connection.protocolVersion}` : "";
    lines.push(
      `${name} (${connection.where}): ${connection.status}${protocol}` +
        (connection.lastError ? ` — ${connection.lastError}` : ""),
    );
    for (const tool of catalogue.filter((t) => t.server === name)) lines.push(`  ${tool.name}`);
    for (const tool of hub.held(name))
      lines.push(`  ${tool.name} — held: changed since approved (${command} mcp approve ${name})`);
  }
  if (hub.searchMode())
    lines.push(`The tools are behind mcp_search (${catalogue.length} tools; ${hub.chosenCount} chosen).`);
  return lines.join("\n");
}
