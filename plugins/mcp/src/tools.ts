/**
 * An MCP tool as a keel tool. The server's JSON Schema is sent to the model as it wrote it (`inputSchema`);
 * keel checks only that the arguments are an object and leaves the rest to the server, which validates them
 * and answers a bad call with an error result: converting the schema to zod would drop the keys it does not
 * know. Annotations are hints from a stranger: `readOnlyHint` lets calls run in parallel and nothing more
 * (the permission guard does not trust it for `mcp__*` tools).
 */
import { z, type Tool } from "@keel/extensions-api";
import type { KnownTool } from "./definition.ts";
import { lazyModules } from "./lazy-modules.ts";

/** What keel checks of an MCP tool's arguments: an object; the server checks the rest. */
export const AnyObject = z.record(z.string(), z.unknown());

/** Runs one call of this tool on its server; resolves what the server answered. */
export interface ToolCaller {
  callTool(args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

export function keelTool(name: string, server: string, tool: KnownTool, caller: ToolCaller): Tool<typeof AnyObject> {
  const { $schema: _ignored, ...inputSchema } = tool.inputSchema;
  return {
    name,
    label: tool.title ?? `${server}: ${tool.name}`,
    description: tool.description ?? tool.title ?? `The ${tool.name} tool of the MCP server "${server}".`,
    parameters: AnyObject,
    inputSchema: { type: "object", ...inputSchema },
    readOnly: tool.annotations?.readOnlyHint === true,
    // The server's word, not this plugin's: a permission policy does not take it as a grant.
    readOnlyFrom: "remote",
    async execute(input, ctx) {
      const answer = await caller.callTool(input, ctx.signal);
      // The result mapping (and its schemas) loads with the first call, not with the tool.
      return (await lazyModules.results()).toToolResult(answer, server, tool.name);
    },
  };
}

/** What one tool costs in every request: its name, description and schema as JSON. */
export function definitionBytes(tool: KnownTool): number {
  return Buffer.byteLength(
    JSON.stringify({ name: tool.name, description: tool.description, schema: tool.inputSchema }),
  );
}
