/**
 * plugin-dev: `keel plugin new|validate|pack`, the tools for writing a plugin. Loaded only when the command
 * line names `plugin`.
 */
import { definePlugin } from "@keel/extensions-api";
import { pluginCommand } from "./command.ts";

export default definePlugin({
  activate(api) {
    api.registerCliCommand(pluginCommand);
  },
});
