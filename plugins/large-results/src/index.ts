/**
 * large-results: any tool result over the threshold (16 KB of text) is stored whole in the session's results
 * folder, and the model gets a preview (head and tail) with a handle; the `read_result` tool reads ranges or
 * matching lines from it. Images pass through untouched.
 */
import { definePlugin, STAGE_ENRICH } from "@keel/extensions-api";
import { join } from "node:path";
import { storeIfLarge } from "./intercept.ts";
import { readResultTool } from "./read-result.ts";
import { LargeResultsSettingsSchema } from "./settings.ts";
import { ResultStore } from "./store.ts";

export default definePlugin({
  settings: LargeResultsSettingsSchema,
  activate(api) {
    const settings = api.settings;
    const store = new ResultStore(() => join(api.runtime.dataDir, "results"));
    const tool = readResultTool(store, settings.thresholdBytes - 1024);
    api.registerTool(tool);
    api.events.on("history_replaced", () => store.historyReplaced());
    // After the default stage, so transforms that redact or reshape a result see it whole before it is stored.
    api.hooks.tap("tool_result", { stage: STAGE_ENRICH }, (message) => {
      if (message.toolName === tool.name) return message; // its output is already sized; storing it would loop
      return storeIfLarge(message, store, settings);
    });
  },
});
