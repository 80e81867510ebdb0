/**
 * ui-print: line-based modes. `text` (keel -p) prints the final answer; `json` prints every event as one JSON
 * line, for scripts and other programs; both exit non-zero when the run did not end normally. `interactive`
 * (plain `keel`) is a line-by-line chat for terminals and pipes alike.
 */
import { definePlugin } from "@keel/extensions-api";
import { chatMode } from "./chat-mode.ts";
import { jsonMode, textMode } from "./modes.ts";
import { PrintSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: PrintSettingsSchema,
  activate(api) {
    const progress = api.settings.progress === "always" || (api.settings.progress === "auto" && process.stderr.isTTY);
    api.registerMode(textMode(progress));
    api.registerMode(jsonMode);
    api.registerMode(chatMode);
  },
});
