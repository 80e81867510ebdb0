/**
 * tools-fs: the file tools — read, write, edit, ls, find, grep. They reach files only through `ctx.ops`, so
 * they work on any operations backend; find and grep use ripgrep when the backend is the local machine.
 * `activate()` registers their declarations only; each tool's module is imported on its first call.
 * Settings (`"tools-fs"` section): `{ "ripgrep": false }` makes find and grep walk the files themselves.
 */
import { definePlugin, lazyTool, z } from "@keel/extensions-api";
import { editDeclaration, findDeclaration, grepDeclaration, lsDeclaration, readDeclaration, writeDeclaration } from "./declarations.ts";
import { FileQueue } from "./file-queue.ts";
import { Ripgrep } from "./ripgrep.ts";

export const ToolsFsSettingsSchema = z
  .object({
    /** Use the bundled ripgrep for find and grep when the backend is local. */
    ripgrep: z.boolean().default(true),
  })
  .default({ ripgrep: true });

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

export default definePlugin({
  settings: ToolsFsSettingsSchema,
  activate(api) {
    for (const tool of Object.values(createFileTools({ ripgrep: api.settings.ripgrep }))) api.registerTool(tool);
  },
});
