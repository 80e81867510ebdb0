/**
 * `edit`: replaces exact snippets of a file. All edits match against the file as it was and apply together
 * or not at all; the file is read again just before writing, and when something else changed it meanwhile
 * the edits are applied to that newer text instead, so the other change is kept. Calls on one file queue up.
 */
import { defineTool } from "@keel/extensions-api";
import type { Operations, Tool } from "@keel/extensions-api";
import { decodeText, looksBinary } from "./content-kind.ts";
import { applyEdits, EditError } from "./edit-apply.ts";
import type { FileQueue } from "./file-queue.ts";
import { displayPath, withFsErrors } from "./paths.ts";
import { unifiedDiff } from "./unified-diff.ts";
import { editDeclaration } from "./declarations.ts";

export interface EditDetails {
  path: string;
  diff: string;
  firstChangedLine: number;
  added: number;
  removed: number;
}


const BOM = "\uFEFF";
const hasBom = (bytes: Uint8Array) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

async function readText(ops: Operations, input: string, path: string): Promise<Uint8Array> {
  const bytes = await withFsErrors(path, () => ops.readFile(input), "To create a file, use write.");
  if (looksBinary(bytes)) throw new Error(`${path} is a binary file; edit changes text files only.`);
  return bytes;
}

export function editTool(queue: FileQueue): Tool<typeof editDeclaration.parameters, EditDetails> {
  return defineTool({
    ...editDeclaration,
    async execute(input, ctx) {
      const path = displayPath(ctx.ops.cwd, input.path);
      const key = await ctx.ops.resolve(input.path, "write");
      return queue.run(key, async () => {
        let bytes = await readText(ctx.ops, input.path, path);
        let before = decodeText(bytes);
        let after = applyEdits(before, input.edits, path);
        let diff = await unifiedDiff(path, before, after);

        const now = await readText(ctx.ops, input.path, path);
        if (!sameBytes(now, bytes)) {
          bytes = now;
          before = decodeText(now);
          try {
            after = applyEdits(before, input.edits, path);
          } catch (error) {
            if (!(error instanceof EditError)) throw error;
            throw new EditError(`${path} changed while it was being edited, and the edits no longer fit the new text.\n${error.message}\nRead the file again and redo the edit.`);
          }
          diff = await unifiedDiff(path, before, after);
        }
        await withFsErrors(path, () => ctx.ops.writeFile(input.path, hasBom(bytes) ? BOM + after : after));
        const summary = `Edited ${path}: ${input.edits.length} edit${input.edits.length === 1 ? "" : "s"}, +${diff.added} -${diff.removed} lines.`;
        return { content: `${summary}\n\n${diff.text}`, details: { path, diff: diff.text, firstChangedLine: diff.firstChangedLine, added: diff.added, removed: diff.removed } };
      });
    },
  });
}
