/** The render context the TUI gives plugins' renderers: its own styles, never plain. */
import type { RenderContext } from "@keel/extensions-api";
import { style } from "./style.ts";

export function renderContext(width: number, expanded: boolean): RenderContext {
  return { width, expanded, style, plain: false };
}
