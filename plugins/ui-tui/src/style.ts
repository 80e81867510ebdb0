/**
 * The TUI's colours: plain SGR sequences (no colour library), closed with their own reset codes so a styled
 * piece never ends the style around it. Themes for pi-tui's components are built from the same functions.
 */
import type { EditorTheme, MarkdownTheme, SelectListTheme } from "@earendil-works/pi-tui";

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\x1b[${open}m${text}\x1b[${close}m`;

export const style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  underline: sgr(4, 24),
  strike: sgr(9, 29),
  accent: sgr(36, 39),
  success: sgr(32, 39),
  error: sgr(31, 39),
  warning: sgr(33, 39),
  muted: sgr(90, 39),
};

export type Style = typeof style;

export const selectTheme: SelectListTheme = {
  selectedPrefix: style.accent,
  selectedText: (t) => style.bold(style.accent(t)),
  description: style.muted,
  scrollInfo: style.muted,
  noMatch: style.muted,
};

export const editorTheme: EditorTheme = { borderColor: style.muted, selectList: selectTheme };

export const markdownTheme: MarkdownTheme = {
  heading: (t) => style.bold(style.accent(t)),
  link: style.underline,
  linkUrl: style.muted,
  code: style.accent,
  codeBlock: (t) => t,
  codeBlockBorder: style.muted,
  quote: style.italic,
  quoteBorder: style.muted,
  hr: style.muted,
  listBullet: style.accent,
  bold: style.bold,
  italic: style.italic,
  strikethrough: style.strike,
  underline: style.underline,
};
