/**
 * `write`: creates or replaces a whole file. The backend writes a temp file and renames it, so a crash never
 * leaves half a file, and creates missing parent folders.
 */
import { defineTool } from "@keel/extensions-api";
import { formatBytes } from "@keel/extensions-api/truncate";
import type { Tool } from "@keel/extensions-api";
import type { FileQueue } from "./file-queue.ts";
import { displayPath, withFsErrors } from "./paths.ts";
import { writeDeclaration } from "./declarations.ts";

export interface WriteDetails {
  path: string;
  bytes: number;
  created: boolean;
}


export function writeTool(queue: FileQueue): Tool<typeof writeDeclaration.parameters, WriteDetails> {
  return defineTool({
    ...writeDeclaration,
    async execute(input, ctx) {
      const path = displayPath(ctx.ops.cwd, input.path);
      const key = await ctx.ops.resolve(input.path, "write");
      return queue.run(key, async () => {
        const before = await ctx.ops.stat(input.path);
        if (before?.kind === "directory") throw new Error(`${path} is a folder; give the path of a file to write.`);
        await withFsErrors(path, () => ctx.ops.writeFile(input.path, input.content));
        const bytes = new TextEncoder().encode(input.content).length;
        const verb = before ? "Replaced" : "Created";
        return { content: `${verb} ${path} (${formatBytes(bytes)}).`, details: { path, bytes, created: !before } };
      });
    },
  });
}
