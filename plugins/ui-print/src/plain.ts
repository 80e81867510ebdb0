/**
 * The plain-text side of the UI extension points: plugins' renderers run with styles that return the text
 * unchanged (`plain: true`), so the line chat and the JSON mode show the same lines the terminal UI draws,
 * without colour. A renderer that throws or returns nothing counts as absent.
 */
import type { PluginEntry, Runtime, ToolResultContent } from "@keel/extensions-api";
import { plainContext, renderedLines as lines } from "@keel/extensions-api/render";

const PLAIN = plainContext();

/** The tool's own call lines, if it renders them. */
export function callLines(runtime: Runtime, tool: string, input: unknown): string[] | undefined {
  const call = runtime.ui().toolRenderer(tool)?.call;
  return call && lines(() => call(input, PLAIN));
}

/** The tool's own result lines, if it renders them. */
export function resultLines(
  runtime: Runtime,
  tool: string,
  input: unknown,
  result: { content: ToolResultContent[]; details?: unknown; isError: boolean },
): string[] | undefined {
  const render = runtime.ui().toolRenderer(tool)?.result;
  return render && lines(() => render(result, input, PLAIN));
}

/** A session entry as its plugin renders it, if it does. */
export function entryLines(runtime: Runtime, entry: PluginEntry): string[] | undefined {
  const renderer = runtime.ui().messageRenderer(entry);
  return renderer && lines(() => renderer.render(entry, PLAIN));
}

/** Plugins' widgets and status entries as text, for the end of a run; empty when there are none. */
export function uiSummary(runtime: Runtime): string[] {
  const ui = runtime.ui();
  const widgets = ui.widgets.flatMap((w) => lines(() => w.render(runtime, PLAIN)) ?? []);
  const status = ui.statusEntries.flatMap((s) => lines(() => [s.text(runtime) ?? ""].filter(Boolean)) ?? []);
  return [...widgets, ...(status.length ? [status.join(" · ")] : [])];
}
