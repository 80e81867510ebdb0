/** The render context the TUI gives plugins' renderers, and running one without letting it break the screen. */
import type { RenderContext } from "@keel/extensions-api";
import { style } from "./style.ts";

export function renderContext(width: number, expanded: boolean): RenderContext {
  return { width, expanded, style, plain: false };
}

/** A renderer's lines, or undefined when it has none, returned none, or threw (the caller shows its default). */
export function tryRender(render: (() => string[] | undefined) | undefined): string[] | undefined {
  if (!render) return undefined;
  try {
    const lines = render();
    return Array.isArray(lines) && lines.length > 0 ? lines.map(String) : undefined;
  } catch {
    return undefined;
  }
}
