/**
 * compaction-window: compacts without a model call. When `compaction.strategy` (or `compaction.byModel`)
 * selects "window", it drops the oldest whole turns, keeps the recent ones up to `keepRecentTokens`, and
 * leaves a note of the tools and files the dropped turns used.
 */
import { definePlugin } from "@keel/extensions-api";
import { compactionChoice } from "@keel/extensions-api/compaction";
import { compactWindow } from "./window.ts";

export const STRATEGY = "window";

export default definePlugin({
  activate(api) {
    api.hooks.tap("compact", (request) => {
      const choice = compactionChoice(api.allSettings, request.model);
      if (choice.strategy !== STRATEGY) return undefined;
      return compactWindow(request, choice.keepRecentTokens);
    });
  },
});
