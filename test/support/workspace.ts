/**
 * Real temp folders for tests, and a `ToolContext` around any operations backend, so a tool can be called
 * directly the way the loop calls it.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Operations, Tool, ToolContext, ToolResult } from "@keel/extensions-api";
import { resultContent } from "@keel/extensions-api";

/** A new empty folder under the OS temp folder (its real path); `remove` deletes it and everything in it. */
export function tempFolder(prefix = "keel-test-"): { path: string; remove(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A context as the loop builds it, over `ops`. */
export function toolContext(ops: Operations, options: { signal?: AbortSignal; dataDir?: string } = {}): ToolContext {
  return {
    signal: options.signal ?? new AbortController().signal,
    toolCallId: "call_test",
    cwd: ops.cwd,
    ops,
    update() {},
    dataDir: options.dataDir ?? join(tmpdir(), "keel-test-data"),
  };
}

export interface CallOutcome<TDetails = unknown> {
  /** All text blocks, joined. */
  text: string;
  isError: boolean;
  details?: TDetails;
  result?: ToolResult<TDetails>;
}

/**
 * Calls `tool` as the loop does: the input is parsed by the tool's schema first (so defaults apply and a bad
 * input is refused), and a thrown error becomes an error outcome carrying its message.
 */
export async function callTool<TDetails>(
  tool: Tool<any, TDetails>,
  input: unknown,
  ctx: ToolContext,
): Promise<CallOutcome<TDetails>> {
  const parsed = tool.parameters.safeParse(input);
  if (!parsed.success) return { text: `Invalid input for ${tool.name}: ${parsed.error.message}`, isError: true };
  try {
    const result = await tool.execute(parsed.data, ctx);
    const text = resultContent(result.content)
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("");
    return { text, isError: result.isError === true, details: result.details, result };
  } catch (error) {
    return { text: (error as Error).message, isError: true };
  }
}
