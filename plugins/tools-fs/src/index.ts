/**
 * tools-fs: the file tools — read, write, edit, ls, find, grep. They reach files only through `ctx.ops`, so
 * they work on any operations backend; find and grep use ripgrep when the backend is the local machine.
 * `activate()` registers their declarations only; each tool's module is imported on its first call.
 */
import { definePlugin } from "@keel/extensions-api";
import { ToolsFsSettingsSchema } from "./settings.ts";
import { createFileTools } from "./tools.ts";

export default definePlugin({
  settings: ToolsFsSettingsSchema,
  activate(api) {
    for (const tool of Object.values(createFileTools({ ripgrep: api.settings.ripgrep }))) api.registerTool(tool);
  },
});
