/**
 * What keel keeps of one MCP tool: its definition as the server listed it, and a hash of the parts that
 * tell the model what the tool does (name, title, description, schemas, annotations). The hash is what
 * approval is about: an edit to any of them after approval is a "rug pull" until the user approves it again.
 */
import { createHash } from "node:crypto";
import { z } from "@keel/extensions-api";

/** One tool of a `tools/list` answer, as far as keel uses it; the rest is dropped. */
export const McpToolSchema = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
});

export type McpTool = z.output<typeof McpToolSchema>;

/** A tool with its definition's hash. */
export interface KnownTool extends McpTool {
  hash: string;
}

/** JSON with object keys sorted, so the hash does not depend on the server's key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function toolHash(tool: McpTool): string {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool;
  return createHash("sha256")
    .update(canonical({ name, title, description, inputSchema, outputSchema, annotations }))
    .digest("hex")
    .slice(0, 32);
}

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

/** One prompt of a `prompts/list` answer: it becomes the command `/mcp:<server>:<prompt>`. */
export const McpPromptSchema = z.object({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z
    .array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean().optional() }))
    .optional(),
});

export type McpPrompt = z.output<typeof McpPromptSchema>;

/** Parses a server's prompt list, leaving out what is not a prompt. */
export function knownPrompts(raw: readonly unknown[]): McpPrompt[] {
  return raw.flatMap((entry) => {
    const parsed = McpPromptSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}
