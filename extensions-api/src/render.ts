/**
 * Helpers for surfaces that show plugins' UI contributions (`@keel/extensions-api/render`): the plain style
 * and render context of surfaces without colour (the line chat, JSON, RPC), and calling a renderer so that
 * one that throws or returns nothing counts as absent and the surface shows its default.
 */
import type { ProjectTrustRequest } from "./hooks.js";
import type { RenderContext, UiStyle } from "./ui.js";

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
