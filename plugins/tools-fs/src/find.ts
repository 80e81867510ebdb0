/**
 * `find`: files whose name or path matches a glob, under a folder, honouring .gitignore, sorted by path, at
 * most 1000. ripgrep lists the files when the backend can run it; otherwise `ops.list` does.
 */
import { defineTool } from "@keel/extensions-api";
import { DEFAULT_MAX_BYTES, formatBytes, truncateHead } from "@keel/extensions-api/truncate";
import type { Tool } from "@keel/extensions-api";
import { displayPath, joinDisplay, pathKind, withFsErrors } from "./paths.ts";
import type { Ripgrep } from "./ripgrep.ts";
import { filesUnder } from "./search-files.ts";
import { FIND_DEFAULT_LIMIT, findDeclaration } from "./declarations.ts";

export interface FindDetails {
  path: string;
  total: number;
  shown: number;
}

export function findTool(ripgrep: Ripgrep): Tool<typeof findDeclaration.parameters, FindDetails> {
  return defineTool({
    ...findDeclaration,
    async execute(input, ctx) {
      const target = input.path || ".";
      const shown = displayPath(ctx.ops.cwd, target);
      const limit = input.limit ?? FIND_DEFAULT_LIMIT;
      const kind = await pathKind(ctx.ops, target);
      if (!kind) throw new Error(`Path not found: ${shown}. Check it with ls.`);
      if (kind === "file")
        throw new Error(`${shown} is a file; find searches folders. Give the folder that contains it.`);
      const files = await withFsErrors(shown, () => filesUnder(ctx.ops, ripgrep, target, input.pattern, ctx.signal));
      if (files.length === 0)
        return {
          content: `No files match ${JSON.stringify(input.pattern)} in ${shown}.`,
          details: { path: shown, total: 0, shown: 0 },
        };

      const kept = files.slice(0, limit).map((file) => joinDisplay(shown, file));
      const cut = truncateHead(kept.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER, maxBytes: DEFAULT_MAX_BYTES });
      const count = cut.truncated ? cut.keptLines : kept.length;
      let text = cut.text;
      if (cut.truncated)
        text +=
          `\n\n[Showing ${count} of ${files.length} files (${formatBytes(DEFAULT_MAX_BYTES)} ` +
          `limit). Use a narrower pattern or path.]`;
      else if (count < files.length)
        text +=
          `\n\n[Showing the first ${count} of ${files.length} files. Use ` +
          `limit=${files.length} for all, or a narrower pattern or path.]`;
      return { content: text, details: { path: shown, total: files.length, shown: count } };
    },
  });
}
