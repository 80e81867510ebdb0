/**
 * Questions a plugin asks the user through whichever UI is active (the `ui_request` hook): a permission
 * prompt, a choice, a line of text. A UI without a user (print mode, CI) answers nothing, and the asking
 * plugin must then take its safe default.
 */
import type { ToolResultContent } from "./messages.js";
import type { Runtime } from "./plugin.js";
import type { PluginEntry } from "./session.js";

export type UiRequest = (
  | { kind: "confirm"; title: string; message?: string }
  | { kind: "select"; title: string; options: string[] }
  | { kind: "input"; title: string; placeholder?: string }
) & {
  /**
   * Only the distribution's own plugins may answer (the user's, a project's and `--plugin`'s `ui_request`
   * handlers are not asked): a question a policy the distribution locks must put to the person, such as a
   * permission prompt under a locked `ask` mode.
   */
  distributionOnly?: boolean;
};

export type UiResponse =
  { kind: "confirm"; confirmed: boolean } | { kind: "select"; value: string } | { kind: "input"; value: string };

/*
 * UI extension points: how a plugin adds to what a UI shows. Each is plain data and functions returning lines
 * of text, so one contribution serves every surface: the terminal UI passes real styles, the line chat and
 * `--mode json` pass `plain: true` and styles that return the text unchanged (their plain-text fallback).
 */

/** Styles a renderer may apply to a piece of text; on a plain surface each returns the text as given. */
export interface UiStyle {
  bold(text: string): string;
  dim(text: string): string;
  accent(text: string): string;
  success(text: string): string;
  error(text: string): string;
  warning(text: string): string;
  muted(text: string): string;
}

/** What a renderer is given. */
export interface RenderContext {
  /** Columns available; longer lines are cut by the UI. */
  width: number;
  /** Whether the user expanded this item; a collapsed view should stay within a few lines. */
  expanded: boolean;
  style: UiStyle;
  /** True on a surface without styling (the line chat, JSON): write what reads well as plain text. */
  plain: boolean;
}

/** A tool's result as a renderer sees it. */
export interface RenderedToolResult<TDetails = unknown> {
  content: ToolResultContent[];
  details?: TDetails;
  isError: boolean;
}

/**
 * How a tool's calls and results look (`Tool.render`). Each function returns lines; a missing one, one that
 * throws or one that returns no lines leaves the UI's default (the tool's name with its first argument; the
 * result's text).
 */
export interface ToolRenderer<TInput = unknown, TDetails = unknown> {
  /** The call, e.g. `edit src/math.ts`: called when the call starts and again when it ends. */
  call?(input: TInput, ctx: RenderContext): string[];
  /** The result, e.g. a diff built from `details`. Also called with partial results while the tool runs. */
  result?(result: RenderedToolResult<TDetails>, input: TInput, ctx: RenderContext): string[];
}

/** An entry of the status line (the terminal UI's footer; the line chat prints it after each run). */
export interface StatusEntry {
  /** Unique among status entries, e.g. `todo`. */
  name: string;
  /** The text to show now, short (a few words); undefined hides the entry. Read after every event. */
  text(runtime: Runtime): string | undefined;
}

/** Lines shown above the editor (the terminal UI) or after each run (the line chat), e.g. a todo list. */
export interface Widget {
  /** Unique among widgets. */
  name: string;
  /** The lines to show now; none hides the widget. Read after every event. */
  render(runtime: Runtime, ctx: RenderContext): string[];
}

/** How this plugin's session entries of one kind appear in the conversation (`api.session.append`). */
export interface MessageRenderer {
  /** The entry kind it renders; only the registering plugin's entries of that kind are given to it. */
  kind: string;
  /** The entry's lines; none shows nothing. */
  render(entry: PluginEntry, ctx: RenderContext): string[];
}

/**
 * A key that runs a slash command line in the terminal UI (whose /help lists it). The command is the plain-text
 * fallback: on surfaces without keys (the line chat) the user types the command itself.
 */
export interface Keybinding {
  /** The key, as pi-tui names keys: `ctrl+t`, `alt+x`, `f2`, `shift+tab`. */
  key: string;
  /** What it does, for `/help` and the line chat. */
  description: string;
  /** The command line it runs, e.g. `/todo toggle`. */
  command: string;
}

/** What `Runtime.ui()` returns: the UI contributions of the active plugins, for surfaces to show. */
export interface UiContributions {
  /** The renderer of the tool registered under `name`, if it has one. */
  toolRenderer(name: string): ToolRenderer | undefined;
  readonly statusEntries: readonly StatusEntry[];
  readonly widgets: readonly Widget[];
  /** The renderer the entry's own plugin registered for its kind, if any. */
  messageRenderer(entry: PluginEntry): MessageRenderer | undefined;
  readonly keybindings: readonly Keybinding[];
}
