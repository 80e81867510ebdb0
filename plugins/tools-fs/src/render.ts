/**
 * How UIs show the file tools (`Tool.render`): an edit as its diff (added lines green, removed red, the rest
 * dim; the first lines when collapsed), a write with its size. On a plain surface the same lines come without
 * colour. Read, ls, find and grep keep the UI's default (the name, the path, the result's text).
 */
import type { RenderContext, ToolRenderer } from "@keel/extensions-api";
import type { EditDetails } from "./edit.ts";
import type { WriteDetails } from "./write.ts";

const COLLAPSED_DIFF_LINES = 12;

function diffLines(diff: string, ctx: RenderContext): string[] {
  const { style } = ctx;
  return diff
    .split("\n")
    .filter((line) => !line.startsWith("---") && !line.startsWith("+++") && line !== "")
    .map((line) =>
      line.startsWith("+")
        ? style.success(line)
        : line.startsWith("-")
          ? style.error(line)
          : line.startsWith("@@")
            ? style.muted(line)
            : style.dim(line),
    );
}

export const editRenderer: ToolRenderer<{ path: string; edits: unknown[] }, EditDetails> = {
  call: (input, ctx) => [
    `${ctx.style.bold("edit")} ${input.path}${
      input.edits?.length > 1 ? ctx.style.muted(` (${input.edits.length} edits)`) : ""
    }`,
  ],
  result: (result, _input, ctx) => {
    const details = result.details;
    if (result.isError || typeof details?.diff !== "string") return [];
    const lines = diffLines(details.diff, ctx);
    const summary = ctx.style.muted(`+${details.added} -${details.removed} lines`);
    if (ctx.expanded || lines.length <= COLLAPSED_DIFF_LINES) return [summary, ...lines];
    const hidden = lines.length - COLLAPSED_DIFF_LINES;
    return [
      summary,
      ...lines.slice(0, COLLAPSED_DIFF_LINES),
      ctx.style.muted(`… ${hidden} more diff line${hidden === 1 ? "" : "s"}${ctx.plain ? "" : " (ctrl+o expands)"}`),
    ];
  },
};

export const writeRenderer: ToolRenderer<{ path: string; content: string }, WriteDetails> = {
  call: (input, ctx) => {
    const lines = typeof input.content === "string" ? input.content.split("\n").length : 0;
    return [`${ctx.style.bold("write")} ${input.path} ${ctx.style.muted(`(${lines} line${lines === 1 ? "" : "s"})`)}`];
  },
};
