/** Which model writes the summary: `compaction-summary.model` when it is available, else the session's. */
import type { ModelInfo, PluginAPI } from "@keel/extensions-api";
import type { CompactionSummarySettings } from "./settings.ts";

/** The configured summary model, or undefined (the session's model) with a warning when it is not available. */
export function summaryModel(
  api: PluginAPI<CompactionSummarySettings>,
  sessionModel: ModelInfo,
): ModelInfo | undefined {
  const wanted = api.settings.model;
  if (!wanted) return undefined;
  const found = api.runtime.listModels().find((m) => `${m.provider}/${m.id}` === wanted);
  if (!found)
    api.log.warn(
      `compaction-summary: model "${wanted}" (settings compaction-summary.model) is not available; ` +
        `summarising with ${sessionModel.provider}/${sessionModel.id}`,
    );
  return found;
}
