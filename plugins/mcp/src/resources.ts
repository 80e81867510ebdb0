/**
 * `mcp_read_resource`: reads a resource of an MCP server by its URI, or lists a server's resources (and its
 * resource templates) when no URI is given. Contents map like those embedded in a tool result (`results.ts`).
 * Its description names no server, so it stays true when servers are added later; a wrong name is answered
 * with the servers there are. Registered at start, so its schema is JSON as written (no zod object to build)
 * and its two arguments are checked here.
 */
import { z, type Tool, type ToolResultContent } from "@keel/extensions-api";
import type { Client } from "@modelcontextprotocol/client";
import type { McpHub } from "./hub.ts";
import { lazyModules } from "./lazy-modules.ts";
import { AnyObject } from "./tools.ts";

const INPUT_SCHEMA = {
  type: "object",
  properties: {
    server: { type: "string", description: "The MCP server's name (the part after mcp__ in its tools' names)" },
    uri: { type: "string", description: "The resource's URI; leave out to list the server's resources" },
  },
  required: ["server"],
};

export function resourceTool(hub: McpHub): Tool<typeof AnyObject> {
  return {
    name: "mcp_read_resource",
    label: "Read MCP resource",
    description:
      "Reads a resource (a file, a record, a document) of an MCP server by its URI; " +
      "without a URI, lists the server's resources and resource templates.",
    parameters: AnyObject,
    inputSchema: INPUT_SCHEMA,
    async execute(input, ctx) {
      const { server, uri } = input;
      if (typeof server !== "string" || (uri !== undefined && typeof uri !== "string"))
        return {
          content: "mcp_read_resource needs server (a string) and, to read one, uri (a string).",
          isError: true,
        };
      const connection = hub.connections.get(server);
      const names = [...hub.connections.keys()].join(", ") || "none";
      if (!connection) return { content: `No MCP server "${server}"; the servers are ${names}.`, isError: true };
      const client = await connection.ensure();
      if (uri === undefined) return { content: await listing(client, server, ctx.signal) };
      const result = await client.readResource({ uri }, { signal: ctx.signal });
      const { resourceBlock } = await lazyModules.results();
      const contents = z.array(z.looseObject({ uri: z.string() })).parse(result.contents);
      const content: ToolResultContent[] = contents.map((item) => resourceBlock(item));
      return { content: content.length > 0 ? content : `Resource ${uri} is empty.` };
    },
  };
}

/** A server's resources and, when it offers them, its resource templates (URIs with `{placeholders}`). */
async function listing(client: Client, server: string, signal: AbortSignal): Promise<string> {
  const { resources } = await client.listResources(undefined, { signal });
  const lines = resources.map((r) => `${r.uri}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ""}`);
  const templates = await client.listResourceTemplates(undefined, { signal }).then(
    (answer) => answer.resourceTemplates,
    () => [],
  );
  if (templates.length > 0)
    lines.push(
      "Templates (fill in the {placeholders} to make a URI to read):",
      ...templates.map((t) => `${t.uriTemplate}  ${t.name}${t.description ? ` — ${t.description}` : ""}`),
    );
  return lines.length > 0 ? lines.join("\n") : `MCP server "${server}" offers no resources.`;
}
