/**
 * `mcp_read_resource`: reads a resource of an MCP server by its URI, or lists a server's resources when no
 * URI is given. Contents map like those embedded in a tool result (`results.ts`).
 */
import { defineTool, z, type Tool, type ToolResultContent } from "@keel/extensions-api";
import type { McpHub } from "./hub.ts";
import { resourceBlock } from "./results.ts";

const Contents = z.array(z.looseObject({ uri: z.string() }));

export function resourceTool(hub: McpHub): Tool {
  return defineTool({
    name: "mcp_read_resource",
    label: "Read MCP resource",
    description:
      "Reads a resource (a file, a record, a document) of an MCP server by its URI; " +
      "without a URI, lists the server's resources.",
    parameters: z.object({
      server: z.string().describe(`The MCP server: ${[...hub.connections.keys()].join(", ")}`),
      uri: z.string().optional().describe("The resource's URI; leave out to list the server's resources"),
    }),
    async execute({ server, uri }, ctx) {
      const connection = hub.connections.get(server);
      if (!connection)
        return {
          content: `No MCP server "${server}"; the servers are ${[...hub.connections.keys()].join(", ")}.`,
          isError: true,
        };
      const client = await connection.ensure();
      if (uri === undefined) {
        const { resources } = await client.listResources(undefined, { signal: ctx.signal });
        if (resources.length === 0) return { content: `MCP server "${server}" offers no resources.` };
        return {
          content: resources.map((r) => `${r.uri}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ""}`).join("\n"),
        };
      }
      const result = await client.readResource({ uri }, { signal: ctx.signal });
      const content: ToolResultContent[] = Contents.parse(result.contents).map((item) => resourceBlock(item));
      return { content: content.length > 0 ? content : `Resource ${uri} is empty.` };
    },
  });
}
