/**
 * One tool call in the conversation: a header line (the tool's own `render.call`, else its name and first
 * argument) and its output (the tool's `render.result`, else the result's text). Collapsed by default to a few
 * lines (the last ones while it runs, so streaming bash output scrolls); ctrl+o expands every call.
 */
import { truncateToWidth, type Component } from "@earendil-works/pi-tui";
import { resultContent, type Runtime, type ToolResult, type ToolResultContent } from "@keel/extensions-api";
import { renderedLines } from "@keel/extensions-api/render";
import { renderContext } from "./render-context.ts";
import { style } from "./style.ts";
import type { ViewState } from "./views.ts";

const COLLAPSED_LINES = 5;

type Status = "pending" | "running" | "done" | "error";

function firstString(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const value = Object.values(input as Record<string, unknown>).find((v) => typeof v === "string") as
    string | undefined;
  return value ? (value.split("\n")[0] ?? "") : "";
}

function textOf(content: ToolResultContent[]): string[] {
  const text = content.map((c) => (c.type === "text" ? c.text : "[image]")).join("\n");
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.length === 1 && lines[0] === "" ? [] : lines;
}

export class ToolView implements Component {
  private status: Status = "pending";
  private result: { content: ToolResultContent[]; details?: unknown; isError: boolean } | undefined;

  constructor(
    private readonly runtime: Runtime,
    private readonly state: ViewState,
    readonly name: string,
    private input: unknown,
  ) {}

  start(input: unknown): void {
    this.input = input;
    this.status = "running";
  }

  progress(partial: ToolResult): void {
    this.result = { content: resultContent(partial.content), details: partial.details, isError: false };
  }

  finish(content: ToolResultContent[], details: unknown, isError: boolean): void {
    this.result = { content, details, isError };
    this.status = isError ? "error" : "done";
  }

  get finished(): boolean {
    return this.status === "done" || this.status === "error";
  }

  render(width: number): string[] {
    const expanded = this.state.expandTools;
    const ctx = renderContext(Math.max(10, width - 4), expanded);
    const renderer = this.runtime.ui().toolRenderer(this.name);
    const call = renderedLines(renderer?.call && (() => renderer.call!(this.input, ctx))) ?? [
      `${style.bold(this.name)} ${firstString(this.input)}`,
    ];
    const mark =
      this.status === "error"
        ? style.error("✗")
        : this.status === "done"
          ? style.success("●")
          : this.status === "running"
            ? style.accent("●")
            : style.muted("○");
    const out = call.map((line, i) => truncateToWidth(`${i === 0 ? mark : " "} ${line}`, width));
    if (!this.result) return ["", ...out];
    const result = this.result;
    let body =
      renderedLines(renderer?.result && (() => renderer.result!(result, this.input, ctx))) ??
      textOf(result.content).map((l) => (result.isError ? style.error(l) : style.muted(l)));
    if (!expanded && body.length > COLLAPSED_LINES) {
      const hidden = body.length - COLLAPSED_LINES;
      const note = style.muted(`… ${hidden} more line${hidden === 1 ? "" : "s"} (ctrl+o expands)`);
      body = this.finished ? [...body.slice(0, COLLAPSED_LINES), note] : [note, ...body.slice(-COLLAPSED_LINES)];
    }
    out.push(...body.map((line, i) => truncateToWidth(`${i === 0 ? "  ⎿ " : "    "}${line}`, width)));
    return ["", ...out];
  }

  invalidate(): void {}
}
