/**
 * compaction-summary: when `compaction.strategy` (or `compaction.byModel`) selects "summary" (the default),
 * asks a model for a structured summary of the old messages: goal, constraints, progress, decisions, next
 * steps, files. A later compaction updates that summary instead of summarising it again.
 *
 * Settings (`"compaction-summary"` section): `model` ("provider/model", e.g. a cheaper one; default the
 * session's model) and `maxTokens` for the summary.
 */
import { definePlugin, z, type ModelInfo, type PluginAPI } from "@keel/extensions-api";
import { compactionChoice } from "@keel/extensions-api/compaction";
import { compactWithSummary } from "./summarise.ts";

export const STRATEGY = "summary";

const SettingsSchema = z
  .object({
    model: z.string().regex(/^[^/]+\/.+$/, 'expected "provider/model"').optional(),
    maxTokens: z.number().int().positive().default(4_096),
  })
  .default({ maxTokens: 4_096 });

export default definePlugin({
  settings: SettingsSchema,
  activate(api) {
    api.hooks.tap("compact", async (request) => {
      const choice = compactionChoice(api.allSettings, request.model);
      if (choice.strategy !== STRATEGY) return undefined;
      const runtime = api.runtime;
      const complete = runtime.complete.bind(runtime);
      return compactWithSummary(request, { keepRecentTokens: choice.keepRecentTokens, complete, model: summaryModel(api, request.model), maxTokens: api.settings.maxTokens });
    });
  },
});

function summaryModel(api: PluginAPI<z.output<typeof SettingsSchema>>, sessionModel: ModelInfo): ModelInfo | undefined {
  const wanted = api.settings.model;
  if (!wanted) return undefined;
  const found = api.runtime.listModels().find((m) => `${m.provider}/${m.id}` === wanted);
  if (!found) api.log.warn(`compaction-summary: model "${wanted}" (settings compaction-summary.model) is not available; summarising with ${sessionModel.provider}/${sessionModel.id}`);
  return found;
}
