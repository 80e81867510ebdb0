/**
 * tools-fs: the file tools — read, write, edit, ls, find, grep. They reach files only through `ctx.ops`, so
 * they work on any operations backend; find and grep use ripgrep when the backend is the local machine.
 * Settings (`"tools-fs"` section): `{ "ripgrep": false }` makes find and grep walk the files themselves.
 */
import { definePlugin, z } from "@keel/extensions-api";
import { editTool } from "./edit.ts";
import { FileQueue } from "./file-queue.ts";
import { findTool } from "./find.ts";
import { grepTool } from "./grep.ts";
import { lsTool } from "./ls.ts";
import { readTool } from "./read.ts";
import { Ripgrep } from "./ripgrep.ts";
import { writeTool } from "./write.ts";

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
  return { read: readTool, write: writeTool(queue), edit: editTool(queue), ls: lsTool, find: findTool(ripgrep), grep: grepTool(ripgrep) };
}

export default definePlugin({
  settings: ToolsFsSettingsSchema,
  activate(api) {
    for (const tool of Object.values(createFileTools({ ripgrep: api.settings.ripgrep }))) api.registerTool(tool);
  },
});
