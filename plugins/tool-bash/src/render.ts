/**
 * How UIs show a bash call (`Tool.render`): the command as a shell line (`$ npm test`), its first line when
 * collapsed, every line when expanded. The output keeps the UI's default: the result's text, which the
 * terminal UI streams from the tool's progress updates while the command runs.
 */
import type { ToolRenderer } from "@keel/extensions-api";

export const bashRenderer: ToolRenderer<{ command: string; background?: boolean }> = {
  call: (input, ctx) => {
    const lines = String(input.command ?? "").split("\n");
    const shown = ctx.expanded ? lines : lines.slice(0, 1);
    const more = lines.length > shown.length ? ctx.style.muted(` … (${lines.length} lines)`) : "";
    const background = input.background ? ctx.style.muted(" (background)") : "";
    return shown.map((line, i) => `${i === 0 ? ctx.style.bold("$") : " "} ${line}${i === 0 ? more + background : ""}`);
  },
};
