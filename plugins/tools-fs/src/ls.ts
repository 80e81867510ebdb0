/**
 * `ls`: what is in a folder, sorted by name, folders marked with a trailing `/`, at most 500 entries.
 */
import { defineTool } from "@keel/extensions-api";
import { DEFAULT_MAX_BYTES, formatBytes, truncateHead } from "@keel/extensions-api/truncate";
import { displayPath, pathKind, withFsErrors } from "./paths.ts";
import { LS_DEFAULT_LIMIT, lsDeclaration } from "./declarations.ts";

export interface LsDetails {
  path: string;
  total: number;
  shown: number;
}

/** Case-insensitive, then exact, so `a`, `B`, `c` read naturally and the order is still total. */
function byName(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export const lsTool = defineTool({
  ...lsDeclaration,
  async execute(input, ctx) {
    const target = input.path || ".";
    const path = displayPath(ctx.ops.cwd, target);
    const limit = input.limit ?? LS_DEFAULT_LIMIT;
    const kind = await pathKind(ctx.ops, target);
    if (!kind) throw new Error(`Folder not found: ${path}. Use ls on a parent folder to see what exists.`);
    if (kind === "file") throw new Error(`${path} is a file, not a folder; use read to see its content.`);
    const entries = await withFsErrors(
      path,
      () => ctx.ops.list(target),
      "Use ls on a parent folder to see what exists.",
    );
    const names = entries.map((entry) => (entry.kind === "directory" ? `${entry.name}/` : entry.name)).sort(byName);
    if (names.length === 0) return { content: `[${path} is an empty folder]`, details: { path, total: 0, shown: 0 } };

    const kept = names.slice(0, limit);
    const cut = truncateHead(kept.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER, maxBytes: DEFAULT_MAX_BYTES });
    const shown = cut.truncated ? cut.keptLines : kept.length;
    let text = cut.text;
    if (cut.truncated) {
      text +=
        `\n\n[Showing ${shown} of ${names.length} entries (${formatBytes(DEFAULT_MAX_BYTES)} ` +
        `limit). Use find with a pattern to narrow the list.]`;
    } else if (shown < names.length) {
      text +=
        `\n\n[Showing ${shown} of ${names.length} entries. Use limit=${names.length} to see ` +
        `all, or find to search by name.]`;
    }
    return { content: text, details: { path, total: names.length, shown } };
  },
});
