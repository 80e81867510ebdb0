/**
 * The conversation's pieces as pi-tui components: the user's messages, the assistant's replies (text as
 * Markdown, thinking collapsible), notices, and plugins' session entries. Tool calls are in tool-view.ts.
 */
import { Markdown, truncateToWidth, wrapTextWithAnsi, type Component } from "@earendil-works/pi-tui";
import type { AssistantMessage, Message, PluginEntry, Runtime } from "@keel/extensions-api";
import { renderedLines } from "@keel/extensions-api/render";
import { renderContext } from "./render-context.ts";
import { markdownTheme, style } from "./style.ts";

/** What the views read each frame: whether thinking and tool output are expanded (ctrl+t, ctrl+o). */
export interface ViewState {
  expandThinking: boolean;
  expandTools: boolean;
}

/** A component drawn by a function of the width, each frame. */
export class Lines implements Component {
  constructor(private readonly draw: (width: number) => string[]) {}
  render(width: number): string[] {
    return this.draw(width).flatMap((line) => wrapTextWithAnsi(line, Math.max(1, width)));
  }
  invalidate(): void {}
}

export function userText(message: Message): string {
  if (message.role !== "user") return "";
  return typeof message.content === "string"
    ? message.content
    : message.content.map((c) => (c.type === "text" ? c.text : "[image]")).join("");
}

export function userView(text: string, synthetic: boolean): Component {
  return new Lines(() => [
    "",
    ...text.split("\n").map((line, i) => (synthetic ? style.muted : style.bold)(`${i === 0 ? "› " : "  "}${line}`)),
  ]);
}

export function noticeView(level: "info" | "warning" | "error", text: string): Component {
  const color = level === "error" ? style.error : level === "warning" ? style.warning : style.muted;
  return new Lines(() => text.split("\n").map((line) => color(line)));
}

/** One assistant reply, redrawn from its (partial) message as it streams. */
export class AssistantView implements Component {
  private message: AssistantMessage | undefined;
  private readonly markdown: Markdown[] = [];

  constructor(private readonly state: ViewState) {}

  update(message: AssistantMessage): void {
    this.message = message;
  }

  render(width: number): string[] {
    const message = this.message;
    if (!message) return [];
    const out: string[] = [];
    let textIndex = 0;
    for (const block of message.content) {
      if (block.type === "thinking") {
        if (!block.thinking.trim()) continue;
        if (this.state.expandThinking)
          out.push(...wrapTextWithAnsi(style.italic(style.muted(block.thinking.trim())), width));
        else {
          const lines = block.thinking.trim().split("\n").length;
          out.push(style.italic(style.muted(`∴ Thinking (${lines} line${lines === 1 ? "" : "s"}; ctrl+t shows)`)));
        }
      } else if (block.type === "text") {
        if (!block.text.trim()) continue;
        const md = (this.markdown[textIndex] ??= new Markdown("", 0, 0, markdownTheme));
        md.setText(block.text);
        textIndex++;
        out.push(...md.render(width));
      }
    }
    if (message.stopReason === "error")
      out.push(...wrapTextWithAnsi(style.error(`✗ ${message.errorMessage ?? "The request failed."}`), width));
    if (message.stopReason === "aborted") out.push(style.muted("(aborted)"));
    return out.length ? ["", ...out] : [];
  }

  invalidate(): void {
    for (const md of this.markdown) md.invalidate();
  }
}

/** A plugin's session entry, drawn by the renderer its plugin registered; nothing without one. */
export function entryView(runtime: Runtime, entry: PluginEntry, state: ViewState): Component {
  return new Lines((width) => {
    const renderer = runtime.ui().messageRenderer(entry);
    const lines = renderedLines(renderer && (() => renderer.render(entry, renderContext(width, state.expandTools))));
    return lines ? lines.map((l) => truncateToWidth(l, width)) : [];
  });
}
