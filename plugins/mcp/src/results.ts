/**
 * An MCP `tools/call` result as a keel tool result. Text and images pass as they are; audio, resource links and
 * embedded resources become text that says what they are (an embedded image resource stays an image);
 * `structuredContent` is kept in `details` and, when the server sent no text for it, sent as JSON text so the
 * model sees it. `isError` stays an error, which the model sees as one.
 */
import type { ToolResult, ToolResultContent } from "@keel/extensions-api";
import { z } from "@keel/extensions-api";

const Block = z.looseObject({ type: z.string() });
const ResultSchema = z.looseObject({
  content: z.array(Block).default([]),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});

export interface McpResultDetails {
  server: string;
  tool: string;
  structuredContent?: Record<string, unknown>;
}

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** One resource's contents (embedded in a result, or read): text, an image, or a note of what was left out. */
export function resourceBlock(resource: Record<string, unknown>): ToolResultContent {
  const uri = str(resource.uri);
  const mimeType = str(resource.mimeType);
  if (typeof resource.text === "string") return { type: "text", text: `Resource ${uri}:\n${resource.text}` };
  const blob = str(resource.blob);
  if (mimeType.startsWith("image/") && blob) return { type: "image", data: blob, mimeType };
  const bytes = Math.floor((blob.length * 3) / 4);
  return { type: "text", text: `[binary resource ${uri} (${mimeType || "unknown type"}, ${bytes} bytes), not shown]` };
}

function block(raw: z.output<typeof Block>): ToolResultContent {
  switch (raw.type) {
    case "text":
      return { type: "text", text: str(raw.text) };
    case "image":
      return { type: "image", data: str(raw.data), mimeType: str(raw.mimeType) || "image/png" };
    case "audio":
      return { type: "text", text: `[audio (${str(raw.mimeType) || "unknown type"}), not shown]` };
    case "resource_link": {
      const about = [str(raw.mimeType), str(raw.description)].filter(Boolean).join(", ");
      return { type: "text", text: `Resource link: ${str(raw.name)} ${str(raw.uri)}${about ? ` (${about})` : ""}` };
    }
    case "resource":
      return resourceBlock((raw.resource ?? {}) as Record<string, unknown>);
    default:
      return { type: "text", text: `[content of type "${raw.type}", which keel does not show]` };
  }
}

/** Maps what `client.callTool` resolved to. A result that is not one is reported as an error naming the tool. */
export function toToolResult(raw: unknown, server: string, tool: string): ToolResult<McpResultDetails> {
  const parsed = ResultSchema.safeParse(raw);
  if (!parsed.success)
    return {
      content: `MCP server "${server}" answered the call of "${tool}" with something that is not a tool result.`,
      isError: true,
    };
  const { content, structuredContent, isError } = parsed.data;
  const blocks = content.map(block);
  if (structuredContent && !blocks.some((b) => b.type === "text"))
    blocks.push({ type: "text", text: JSON.stringify(structuredContent) });
  if (blocks.length === 0)
    blocks.push({ type: "text", text: isError ? "(the tool failed and said nothing)" : "(no output)" });
  return {
    content: blocks,
    details: { server, tool, ...(structuredContent && { structuredContent }) },
    ...(isError && { isError: true }),
  };
}
