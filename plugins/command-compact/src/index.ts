/**
 * command-compact: `/compact [instructions]` compacts the conversation now with whichever strategy the settings
 * select; the instructions tell a summarising strategy what to focus on. Loaded only when the command is used.
 */
import { definePlugin } from "@keel/extensions-api";
import { runCompact } from "./compact-command.ts";

export default definePlugin({
  activate(api) {
    api.registerCommand({
      name: "/compact",
      description: "Compact the conversation now; optional text says what the summary should focus on.",
      run: runCompact,
    });
  },
});
