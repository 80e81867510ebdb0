/** The file tools, each imported on its first call. */
import { lazyTool } from "@keel/extensions-api";
import {
  editDeclaration,
  findDeclaration,
  grepDeclaration,
  lsDeclaration,
  readDeclaration,
  writeDeclaration,
} from "./declarations.ts";
import { FileQueue } from "./file-queue.ts";
import { Ripgrep } from "./ripgrep.ts";

/** The six tools, sharing one per-file queue and one ripgrep locator; what the plugin registers. */
export function createFileTools(options: { ripgrep: boolean }) {
  const queue = new FileQueue();
  const ripgrep = new Ripgrep(options.ripgrep);
  return {
    read: lazyTool(readDeclaration, async () => (await import("./read.ts")).readTool),
    write: lazyTool(writeDeclaration, async () => (await import("./write.ts")).writeTool(queue)),
    edit: lazyTool(editDeclaration, async () => (await import("./edit.ts")).editTool(queue)),
    ls: lazyTool(lsDeclaration, async () => (await import("./ls.ts")).lsTool),
    find: lazyTool(findDeclaration, async () => (await import("./find.ts")).findTool(ripgrep)),
    grep: lazyTool(grepDeclaration, async () => (await import("./grep.ts")).grepTool(ripgrep)),
  };
}
