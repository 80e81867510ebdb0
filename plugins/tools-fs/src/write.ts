/**
 * `write`: creates or replaces a whole file. The backend writes a temp file and renames it, so a crash never
 * leaves half a file, and creates missing parent folders. It writes UTF-8, and says so when the file it
 * replaced was not valid UTF-8 (the model may have meant to keep its encoding).
 */
import { defineTool } from "@keel/extensions-api";
import { formatBytes } from "@keel/extensions-api/truncate";
import type { Operations, Tool } from "@keel/extensions-api";
import { isValidUtf8, looksBinary } from "./content-kind.ts";
import type { FileQueue } from "./file-queue.ts";
import { displayPath, withFsErrors } from "./paths.ts";
import { writeDeclaration } from "./declarations.ts";

export interface WriteDetails {
  path: string;
  bytes: number;
  created: boolean;
  /** The file replaced was not valid UTF-8. */
  replacedNotUtf8?: boolean;
}

/** Whether the file at `path` holds text that is not valid UTF-8; false when it cannot be read. */
async function heldOtherEncoding(ops: Operations, path: string): Promise<boolean> {
  try {
    const bytes = await ops.readFile(path);
    return !looksBinary(bytes) && !isValidUtf8(bytes);
  } catch {
    return false;
  }
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
        const wasOtherEncoding = before?.kind === "file" && (await heldOtherEncoding(ctx.ops, input.path));
        await withFsErrors(path, () => ctx.ops.writeFile(input.path, input.content));
        const bytes = new TextEncoder().encode(input.content).length;
        const verb = before ? "Replaced" : "Created";
        const notes: string[] = [];
        if (wasOtherEncoding)
          notes.push(`The file it replaced was not valid UTF-8 (Latin-1 or another encoding); it is now UTF-8.`);
        // Under the u flag a surrogate pair is one code point, so \p{Cs} finds only unpaired ones.
        if (/\p{Cs}/u.test(input.content))
          notes.push(
            "The content held unpaired UTF-16 surrogates, which UTF-8 cannot hold; each was written as U+FFFD.",
          );
        const text = `${verb} ${path} (${formatBytes(bytes)}).${notes.map((note) => ` ${note}`).join("")}`;
        return {
          content: text,
          details: { path, bytes, created: !before, ...(wasOtherEncoding ? { replacedNotUtf8: true } : {}) },
        };
      });
    },
  });
}
