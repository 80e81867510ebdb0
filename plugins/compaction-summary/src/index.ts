/**
 * compaction-summary: when `compaction.strategy` (or `compaction.byModel`) selects "summary" (the default),
 * asks a model for a structured summary of the old messages: goal, constraints, progress, decisions, next
 * steps, files. A later compaction updates that summary instead of summarising it again.
 */
import { definePlugin } from "@keel/extensions-api";
import { compactionChoice } from "@keel/extensions-api/compaction";
import { CompactionSummarySettingsSchema } from "./settings.ts";
import { summaryModel } from "./summary-model.ts";
import { compactWithSummary } from "./summarise.ts";

export const STRATEGY = "summary";

export default definePlugin({
  settings: CompactionSummarySettingsSchema,
  activate(api) {
    api.hooks.tap("compact", async (request) => {
      const choice = compactionChoice(api.allSettings, request.model);
      if (choice.strategy !== STRATEGY) return undefined;
      const runtime = api.runtime;
      const complete = runtime.complete.bind(runtime);
      return compactWithSummary(request, {
        keepRecentTokens: choice.keepRecentTokens,
        complete,
        model: summaryModel(api, request.model),
        maxTokens: api.settings.maxTokens,
      });
    });
  },
});
