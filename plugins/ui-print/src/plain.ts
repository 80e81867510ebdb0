/**
 * Plugins' widgets and status entries as plain text (styles that return the text unchanged), the line chat's
 * stand-in for the terminal UI's panels. A renderer that throws or returns nothing counts as absent.
 */
import type { Runtime } from "@keel/extensions-api";
import { plainContext, renderedLines as lines } from "@keel/extensions-api/render";

const PLAIN = plainContext();

/** Plugins' widgets and status entries as text, for the end of a run; empty when there are none. */
export function uiSummary(runtime: Runtime): string[] {
  const ui = runtime.ui();
  const widgets = ui.widgets.flatMap((w) => lines(() => w.render(runtime, PLAIN)) ?? []);
  const status = ui.statusEntries.flatMap((s) => lines(() => [s.text(runtime) ?? ""].filter(Boolean)) ?? []);
  return [...widgets, ...(status.length ? [status.join(" · ")] : [])];
}
