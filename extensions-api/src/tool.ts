/**
 * Tools: what the model can call. A tool declares its input as a zod schema; the loop validates every call
 * against it, so `execute` only ever receives a well-typed input.
 */
import type { z } from "zod";
import type { ImageContent, TextContent, ToolResultContent } from "./messages.js";
import type { Operations } from "./ops.js";
import type { ToolRenderer } from "./ui.js";

/** What a tool returns. A string is shorthand for one text block. */
export interface ToolResult<TDetails = unknown> {
  content: string | ToolResultContent[];
  /** Structured data for UIs and sessions (a diff, an exit code); never sent to the model. */
  details?: TDetails;
  /** Marks a failure the model should see as one (a test that failed is not an error; a missing file is). */
  isError?: boolean;
}

export interface ToolContext {
  /** Aborted when the user aborts the run; a tool must stop promptly and may return what it has. */
  signal: AbortSignal;
  toolCallId: string;
  /** The workspace root. */
  cwd: string;
  /** File and process primitives of the active operations backend. Throws if no backend is installed. */
  ops: Operations;
  /** Reports progress; UIs show it as `tool_execution_update`. */
  update(partial: ToolResult): void;
  /** A folder private to this session for files a tool keeps (full outputs, large results). */
  dataDir: string;
  /** The subagent that made this call (`SubagentRequest.name`); undefined for the session's own agent. */
  agent?: string;
}

/** A tool contribution. `TParams` is a zod object schema. */
export interface Tool<TParams extends z.ZodType = z.ZodType, TDetails = unknown> {
  /** The name the model calls (letters, digits, `_` and `-`). */
  name: string;
  /** A short human label for UIs. */
  label?: string;
  /** What the tool does, for the model. */
  description: string;
  parameters: TParams;
  /**
   * The JSON Schema the model is sent, as written, when the tool's schema comes from elsewhere as JSON (an MCP
   * server, a manifest): converting it to zod and back would change it. `parameters` still validates every call.
   */
  inputSchema?: Record<string, unknown>;
  /** Read-only tools may run in parallel with each other within one reply. */
  readOnly?: boolean;
  /**
   * Who vouches for `readOnly`: `author` (the default), the plugin's author, who wrote what the tool does; or
   * `remote`, a party the plugin only relays (an MCP server's `readOnlyHint`, whoever runs that server). A remote
   * claim still lets calls run in parallel, but a permission policy does not take it as the tool's word.
   */
  readOnlyFrom?: ReadOnlySource;
  /**
   * Whether the model is shown the tool on the next request; asked before each one, default always. For a tool
   * with nothing to act on until something has happened (`process` before any background process, `read_result`
   * before any stored result), so the first requests stay small. Once true it should stay true: each change
   * alters the request's tool list, which starts the provider's prompt cache afresh. A tool not offered can still
   * be called by name.
   */
  offered?: () => boolean;
  /**
   * Milliseconds one call may run before the loop aborts its signal, waits two seconds more, and answers the
   * model with an error naming the tool. Default: the `loop.toolTimeoutMs` setting (10 minutes); `Infinity` for
   * a tool that bounds its own run time. The user's `loop.toolTimeouts` setting overrides it by tool name.
   */
  timeoutMs?: number;
  /** How UIs show its calls and results (an edit as a diff); without it they show the name and the text. */
  render?: ToolRenderer<z.output<TParams>, TDetails>;
  /**
   * Runs one call. Throwing is allowed and becomes an error result with the message; it never ends the run.
   */
  execute(input: z.output<TParams>, ctx: ToolContext): Promise<ToolResult<TDetails>>;
}

/** Who vouches for a tool's read-only claim (`Tool.readOnlyFrom`). */
export type ReadOnlySource = "author" | "remote";

/** Identity helper that infers the input type from the schema. */
export function defineTool<TParams extends z.ZodType, TDetails = unknown>(
  tool: Tool<TParams, TDetails>,
): Tool<TParams, TDetails> {
  return tool;
}

/** What a tool is without its implementation: everything the model needs to call it. */
export type ToolDeclaration<TParams extends z.ZodType = z.ZodType, TDetails = unknown> = Omit<
  Tool<TParams, TDetails>,
  "execute"
>;

/**
 * A tool whose implementation is imported on its first call, so `activate()` costs only the schema:
 * `lazyTool(spec, () => import("./read.ts").then((m) => m.readTool))`. A failing import becomes the call's error.
 */
export function lazyTool<TParams extends z.ZodType, TDetails = unknown>(
  spec: ToolDeclaration<TParams, TDetails>,
  load: () => Promise<Tool<TParams, TDetails>>,
): Tool<TParams, TDetails> {
  let loaded: Promise<Tool<TParams, TDetails>> | undefined;
  return {
    ...spec,
    async execute(input, ctx) {
      // A failed import is not remembered: the next call tries again.
      loaded ??= load().catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      return (await loaded).execute(input, ctx);
    },
  };
}

/** Normalises a tool result's content to blocks. */
export function resultContent(content: ToolResult["content"]): (TextContent | ImageContent)[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}
