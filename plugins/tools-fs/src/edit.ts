/**
 * `edit`: replaces exact snippets of a file. All edits match against the file as it was and apply together
 * or not at all; the file is read again just before writing, and when something else changed it meanwhile
 * the edits are applied to that newer text instead, so the other change is kept. Calls on one file queue up.
 * A file that is not valid UTF-8 is edited byte for byte (./file-text.ts): only the matched bytes change.
 */
import { defineTool } from "@keel/extensions-api";
import type { Operations, Tool } from "@keel/extensions-api";
import { looksBinary, notUtf8Note } from "./content-kind.ts";
import { applyEdits, EditError, type TextEdit } from "./edit-apply.ts";
import type { FileQueue } from "./file-queue.ts";
import { fileText, type FileText } from "./file-text.ts";
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

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

async function readText(ops: Operations, input: string, path: string): Promise<Uint8Array> {
  const bytes = await withFsErrors(path, () => ops.readFile(input), "To create a file, use write.");
  if (looksBinary(bytes)) throw new Error(`${path} is a binary file; edit changes text files only.`);
  return bytes;
}

/** The edits applied to `file`; in a file that is not UTF-8, a miss says why quoting U+FFFD cannot match. */
function apply(file: FileText, edits: readonly TextEdit[], path: string): string {
  const inFile = edits.map((edit) => ({ oldText: file.toMatch(edit.oldText), newText: file.toMatch(edit.newText) }));
  try {
    return applyEdits(file.text, inFile, path);
  } catch (error) {
    if (!(error instanceof EditError) || file.utf8) throw error;
    throw new EditError(`${error.message}\n\n${notUtf8Note(path)}`);
  }
}

export function editTool(queue: FileQueue): Tool<typeof editDeclaration.parameters, EditDetails> {
  return defineTool({
    ...editDeclaration,
    async execute(input, ctx) {
      const path = displayPath(ctx.ops.cwd, input.path);
      const key = await ctx.ops.resolve(input.path, "write");
      return queue.run(key, async () => {
        const bytes = await readText(ctx.ops, input.path, path);
        let file = fileText(bytes);
        let after = apply(file, input.edits, path);

        const now = await readText(ctx.ops, input.path, path);
        if (!sameBytes(now, bytes)) {
          file = fileText(now);
          try {
            after = apply(file, input.edits, path);
          } catch (error) {
            if (!(error instanceof EditError)) throw error;
            throw new EditError(
              `${path} changed while it was being edited, and the edits no longer fit the new ` +
                `text.\n${error.message}\nRead the file again and redo the edit.`,
            );
          }
        }
        const diff = await unifiedDiff(path, file.readable(file.text), file.readable(after));
        await withFsErrors(path, () => ctx.ops.writeFile(input.path, file.encode(after)));
        const summary =
          `Edited ${path}: ${input.edits.length} ` +
          `edit${input.edits.length === 1 ? "" : "s"}, +${diff.added} -${diff.removed} lines.`;
        const note = file.utf8
          ? ""
          : `\n[${path} is not valid UTF-8, so it was edited byte for byte: only the bytes of the ` +
            `matched text changed.]`;
        return {
          content: `${summary}${note}\n\n${diff.text}`,
          details: {
            path,
            diff: diff.text,
            firstChangedLine: diff.firstChangedLine,
            added: diff.added,
            removed: diff.removed,
          },
        };
      });
    },
  });
}
