/**
 * `mcp_search`: when the MCP tools are too many or too large to send with every request, the model gets this
 * one tool instead. It finds tools by words in their names and descriptions and makes the ones it returns
 * callable for the rest of the session (they are sent from the next request on, and kept in the session: a
 * resumed session can still call them).
 */
import { defineTool, z, type Tool } from "@keel/extensions-api";
import type { McpHub, OfferedTool } from "./hub.ts";

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);

/** How well a tool matches the query: name words count three times, description words once. */
export function score(tool: OfferedTool, query: string[]): number {
  const name = new Set(words(`${tool.server} ${tool.tool.name} ${tool.tool.title ?? ""}`));
  const description = words(tool.tool.description ?? "");
  let total = 0;
  for (const word of query) {
    if (name.has(word)) total += 3;
    else if ([...name].some((n) => n.startsWith(word) || word.startsWith(n))) total += 2;
    total += description.filter((d) => d === word || d.startsWith(word)).length > 0 ? 1 : 0;
  }
  return total;
}

export function searchTool(hub: McpHub): Tool {
  return defineTool({
    name: "mcp_search",
    label: "Search MCP tools",
    description:
      "Finds tools of the connected MCP servers by words (what you want to do, a server's name) and makes " +
      "the ones it returns callable from your next step on. Call it before you need such a tool.",
    parameters: z.object({
      query: z.string().min(1).describe("Words describing the tool you need"),
      limit: z.number().int().min(1).max(20).default(5).describe("How many tools to return and enable"),
    }),
    readOnly: true,
    async execute({ query, limit }) {
      const terms = words(query);
      const ranked = hub
        .catalogue()
        .map((tool) => ({ tool, score: score(tool, terms) }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map((r) => r.tool);
      if (ranked.length === 0)
        return {
          content:
            `No MCP tool matches "${query}". ` +
            `Servers: ${[...hub.connections.keys()].join(", ") || "none"}. Try other words.`,
        };
      hub.choose(ranked.map((tool) => tool.name));
      const lines = ranked.map((t) => `- ${t.name}: ${t.tool.description ?? t.tool.title ?? "(no description)"}`);
      return { content: `These tools are callable now (their parameters come with them):\n${lines.join("\n")}` };
    },
  });
}
