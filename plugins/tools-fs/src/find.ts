/**
 * `find`: files whose name or path matches a glob, under a folder, honouring .gitignore, sorted by path, at
 * most 1000. ripgrep lists the files when the backend can run it; otherwise `ops.list` does.
 */
import { DEFAULT_MAX_BYTES, defineTool, formatBytes, truncateHead, z } from "@keel/extensions-api";
import type { Tool } from "@keel/extensions-api";
import { displayPath, joinDisplay, pathKind, withFsErrors } from "./paths.ts";
import type { Ripgrep } from "./ripgrep.ts";
import { filesUnder } from "./search-files.ts";

export const FIND_DEFAULT_LIMIT = 1000;

export interface FindDetails {
  path: string;
  total: number;
  shown: number;
}

const parameters = z.object({
  pattern: z.string().min(1).describe("Glob: without / it matches file names at any depth (*.ts); with / it matches paths under the folder (src/**/*.test.ts)"),
  path: z.string().optional().describe("Folder to search, relative to the workspace or absolute; the workspace when omitted"),
  limit: z.number().int().min(1).optional().describe(`Most paths to show (default ${FIND_DEFAULT_LIMIT})`),
});

export function findTool(ripgrep: Ripgrep): Tool<typeof parameters, FindDetails> {
  return defineTool({
    name: "find",
    label: "Find",
    description:
      "Finds files by glob pattern, sorted by path, hidden files included, skipping what .gitignore ignores and the .git folder. " +
      `Shows at most ${FIND_DEFAULT_LIMIT} paths.`,
    parameters,
    readOnly: true,
    async execute(input, ctx) {
      const target = input.path || ".";
      const shown = displayPath(ctx.ops.cwd, target);
      const limit = input.limit ?? FIND_DEFAULT_LIMIT;
      const kind = await pathKind(ctx.ops, target);
      if (!kind) throw new Error(`Path not found: ${shown}. Check it with ls.`);
      if (kind === "file") throw new Error(`${shown} is a file; find searches folders. Give the folder that contains it.`);
      const files = await withFsErrors(shown, () => filesUnder(ctx.ops, ripgrep, target, input.pattern, ctx.signal));
      if (files.length === 0) return { content: `No files match ${JSON.stringify(input.pattern)} in ${shown}.`, details: { path: shown, total: 0, shown: 0 } };

      const kept = files.slice(0, limit).map((file) => joinDisplay(shown, file));
      const cut = truncateHead(kept.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER, maxBytes: DEFAULT_MAX_BYTES });
      const count = cut.truncated ? cut.keptLines : kept.length;
      let text = cut.text;
      if (cut.truncated) text += `\n\n[Showing ${count} of ${files.length} files (${formatBytes(DEFAULT_MAX_BYTES)} limit). Use a narrower pattern or path.]`;
      else if (count < files.length) text += `\n\n[Showing the first ${count} of ${files.length} files. Use limit=${files.length} for all, or a narrower pattern or path.]`;
      return { content: text, details: { path: shown, total: files.length, shown: count } };
    },
  });
}
