/**
 * What keel keeps of one MCP tool: its definition as the server listed it, and a hash of the parts that
 * tell the model what the tool does (name, title, description, schemas, annotations). The hash is what
 * approval is about: an edit to any of them after approval is a "rug pull" until the user approves it again.
 * No zod here: the start path reads definitions from the cache; `listing.ts` parses what a server sends.
 */
import { createHash } from "node:crypto";

/** One tool of a `tools/list` answer, as far as keel uses it; the rest is dropped. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** A tool with its definition's hash. */
export interface KnownTool extends McpTool {
  hash: string;
}

/** One prompt of a `prompts/list` answer: it becomes the command `/mcp:<server>:<prompt>`. */
export interface McpPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** JSON with object keys sorted, so a hash does not depend on key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A short sha256 of `value`'s canonical JSON. */
export function hashOf(value: unknown, length: number): string {
  return createHash("sha256").update(canonical(value)).digest("hex").slice(0, length);
}

export function toolHash(tool: McpTool): string {
  const { name, title, description, inputSchema, outputSchema, annotations } = tool;
  return hashOf({ name, title, description, inputSchema, outputSchema, annotations }, 32);
}
