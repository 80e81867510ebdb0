/**
 * The names MCP things get in keel: `mcp__<server>__<tool>` for tools, `/mcp:<server>:<prompt>` for prompts.
 * Providers accept tool names of 1-64 `[A-Za-z0-9_-]`; anything else a server sends is replaced, and two tools
 * that end up with one name are told apart by the registry's alias rule like any clash.
 */

const TOOL_NAME_MAX = 64;

/** `[A-Za-z0-9_-]` only; anything else becomes `_`. */
export function safePart(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** The name the model calls an MCP server's tool by. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${safePart(server)}__${safePart(tool)}`.slice(0, TOOL_NAME_MAX);
}

/** The slash command that runs a server's prompt. */
export function mcpPromptCommand(server: string, prompt: string): string {
  const part = (text: string) => text.replace(/[^\w-]/g, "_");
  return `/mcp:${part(server)}:${part(prompt)}`;
}
