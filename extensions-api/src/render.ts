/**
 * Helpers for surfaces that show plugins' UI contributions (`@keel/extensions-api/render`): the plain style
 * and render context of surfaces without colour (the line chat, JSON, RPC, ACP), calling a renderer so that
 * one that throws or returns nothing counts as absent and the surface shows its default, and the plain lines
 * plugins render for a tool call, its result, a session entry or an event.
 */
import type { EventPayloads } from "./events.js";
import type { ProjectTrustRequest } from "./hooks.js";
import type { PluginEntry } from "./session.js";
import type { ToolResultContent } from "./messages.js";
import type { RenderContext, UiContributions, UiStyle } from "./ui.js";

const same = (text: string) => text;

/** Styles that return the text unchanged. */
export const PLAIN_STYLE: UiStyle = {
  bold: same,
  dim: same,
  accent: same,
  success: same,
  error: same,
  warning: same,
  muted: same,
};

/** The context a plain surface renders with. */
export function plainContext(width = 100, expanded = false): RenderContext {
  return { width, expanded, style: PLAIN_STYLE, plain: true };
}

/** What `render` returned as lines, or undefined when it is missing, threw, or returned no lines. */
export function renderedLines(render: (() => string[] | undefined) | undefined): string[] | undefined {
  if (!render) return undefined;
  try {
    const lines = render();
    return Array.isArray(lines) && lines.length > 0 ? lines.map(String) : undefined;
  } catch {
    return undefined;
  }
}

const PLAIN = plainContext();

/** The tool's own call lines, plain, if it renders them. */
export function renderedCall(ui: UiContributions, tool: string, input: unknown): string[] | undefined {
  const call = ui.toolRenderer(tool)?.call;
  return call && renderedLines(() => call(input, PLAIN));
}

/** The tool's own result lines, plain, if it renders them. */
export function renderedResult(
  ui: UiContributions,
  tool: string,
  input: unknown,
  result: { content: ToolResultContent[]; details?: unknown; isError: boolean },
): string[] | undefined {
  const render = ui.toolRenderer(tool)?.result;
  return render && renderedLines(() => render(result, input, PLAIN));
}

/** A session entry as its plugin renders it, plain, if it does. */
export function renderedEntry(ui: UiContributions, entry: PluginEntry): string[] | undefined {
  const renderer = ui.messageRenderer(entry);
  return renderer && renderedLines(() => renderer.render(entry, PLAIN));
}

/**
 * What plugins render for each event of a stream, as plain lines — a tool's own call and result lines, a
 * plugin's session entry — for surfaces that pass events on (`rendered` in `--mode json` and RPC). Keeps each
 * running call's input, which its result lines are rendered with.
 */
export class EventRendering {
  private readonly inputs = new Map<string, unknown>();

  constructor(private readonly ui: () => UiContributions) {}

  /** The lines for this event, or undefined when nothing renders it. */
  lines(type: string, payload: object): string[] | undefined {
    if (type === "tool_execution_start") {
      const e = payload as EventPayloads["tool_execution_start"];
      this.inputs.set(e.toolCallId, e.input);
      return renderedCall(this.ui(), e.toolName, e.input);
    }
    if (type === "tool_execution_end") {
      const e = payload as EventPayloads["tool_execution_end"];
      const input = this.inputs.get(e.toolCallId);
      this.inputs.delete(e.toolCallId);
      return renderedResult(this.ui(), e.toolName, input, e.result);
    }
    if (type === "session_entry") return renderedEntry(this.ui(), (payload as EventPayloads["session_entry"]).entry);
    return undefined;
  }
}

/** The project trust question as every UI words it: a title and what trusting the folder means. */
export function trustPrompt(request: ProjectTrustRequest): { title: string; message: string } {
  return {
    title: `Trust ${request.dir}?`,
    message:
      `Its ${request.files.join(", ")} can run commands and send your keys to other hosts, ` +
      `and sets: ${request.keys.join(", ")}.\n` +
      "Trusted, they apply (until the files change); not trusted, keel skips them.",
  };
}
