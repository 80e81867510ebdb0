/**
 * Small inline tools and history checks shared by the loop tests.
 */
import { expect } from "vitest";
import { definePlugin, defineTool, z, type Message, type ToolResultMessage } from "@keel/extensions-api";
import type { InlinePlugin } from "@keel/testing";
import { toModelContext } from "@keel/kernel";

export function filesTool(files: Record<string, string>, onRun?: () => void): InlinePlugin {
  return {
    name: "test-read",
    plugin: definePlugin({
      activate(api) {
        api.registerTool(
          defineTool({
            name: "read",
            description: "Read a file.",
            readOnly: true,
            parameters: z.object({ path: z.string() }),
            async execute({ path }) {
              onRun?.();
              if (!(path in files)) throw new Error(`no such file: ${path}`);
              return { content: files[path]! };
            },
          }),
        );
      },
    }),
  };
}

export function waitTool(): InlinePlugin {
  return {
    name: "test-wait",
    plugin: definePlugin({
      activate(api) {
        api.registerTool(
          defineTool({
            name: "wait",
            description: "Wait until aborted.",
            parameters: z.object({}),
            execute: (_input, ctx) =>
              new Promise((resolve) => {
                const stop = () => resolve({ content: "stopped early", isError: true });
                if (ctx.signal.aborted) stop();
                else ctx.signal.addEventListener("abort", stop, { once: true });
              }),
          }),
        );
      },
    }),
  };
}

/** Every tool call in what the model would see has exactly one result right after its message. */
export function expectValidPairs(messages: readonly Message[]): void {
  const context = toModelContext(messages);
  for (let i = 0; i < context.length; i++) {
    const m = context[i]!;
    if (m.role !== "assistant") continue;
    expect(m.stopReason === "error" || m.stopReason === "aborted").toBe(false);
    const ids = m.content.filter((b) => b.type === "toolCall").map((b) => (b as { id: string }).id);
    const following = context.slice(i + 1, i + 1 + ids.length) as ToolResultMessage[];
    expect(following.map((r) => r.toolCallId)).toEqual(ids);
  }
}
