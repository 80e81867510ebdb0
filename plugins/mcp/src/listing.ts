/**
 * Parsing what a server lists (tools, prompts): loaded with the SDK when a server first starts, so the
 * start path builds none of these schemas.
 */
import { z } from "@keel/extensions-api";
import { toolHash, type KnownTool, type McpPrompt, type McpTool } from "./definition.ts";

const McpToolSchema: z.ZodType<McpTool> = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
});

const McpPromptSchema: z.ZodType<McpPrompt> = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z
    .array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() }))
    .optional(),
});

/** Parses a server's tool list; a tool that is not one is left out and named in `problems`. */
export function knownTools(raw: readonly unknown[]): { tools: KnownTool[]; problems: string[] } {
  const tools: KnownTool[] = [];
  const problems: string[] = [];
  for (const entry of raw) {
    const parsed = McpToolSchema.safeParse(entry);
    if (parsed.success) tools.push({ ...parsed.data, hash: toolHash(parsed.data) });
    else
      problems.push(`a listed tool is not a valid MCP tool (${z.prettifyError(parsed.error).replaceAll("\n", " ")})`);
  }
  return { tools, problems };
}

/** Parses a server's prompt list, leaving out what is not a prompt. */
export function knownPrompts(raw: readonly unknown[]): McpPrompt[] {
  return raw.flatMap((entry) => {
    const parsed = McpPromptSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}
