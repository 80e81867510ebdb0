/**
 * tool-bash: the `bash` and `process` tools. Commands run through `ctx.ops.spawn`, so the active operations
 * backend (the local machine, a sandbox, a remote host) decides where. Background processes live as long as
 * the session: they are killed at `session_end` and when the plugin is disposed.
 * Settings (`"tool-bash"` section): timeoutSeconds, killGraceMs, maxLogBytes, maxBackground.
 */
import { definePlugin } from "@keel/extensions-api";
import { BackgroundProcesses } from "./background.ts";
import { bashTool } from "./bash-tool.ts";
import { processTool } from "./process-tool.ts";
import { BashSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: BashSettingsSchema,
  activate(api) {
    const background = new BackgroundProcesses(api.settings);
    api.registerTool(bashTool(api.settings, background));
    api.registerTool(processTool(background));
    api.hooks.tap("session_end", () => background.killAll());
    api.onDispose(() => background.killAll());
  },
});
