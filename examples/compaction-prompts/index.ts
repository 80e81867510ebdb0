/**
 * A compaction strategy without a model call. When `compaction.strategy` is "prompts", it keeps the most
 * recent turns (the shared cut-point rule: whole turns within `keepRecentTokens`, never cutting at a tool
 * result) and replaces the older ones with a list of what the user asked in them, added to the list an
 * earlier compaction left. Cheap and predictable; a model-written summary (compaction-summary) says more.
 * The manifest's `"reads": ["compaction"]` lets it see the shared `compaction` section in `api.allSettings`.
 *
 * settings.json: { "compaction": { "strategy": "prompts", "keepRecentTokens": 8000 },
 *                  "compaction-prompts": { "maxPrompts": 50 } }
 */
import { definePlugin, textOf, z } from "@keel/extensions-api";
import { compactionChoice, findCutPoint, neutralizeSummary } from "@keel/extensions-api/compaction";

const HEADING = "Earlier requests from the user (oldest first):";

export default definePlugin({
  settings: z.object({ maxPrompts: z.number().int().positive().default(50) }).default({ maxPrompts: 50 }),
  activate(api) {
    api.hooks.tap("compact", (request) => {
      const choice = compactionChoice(api.allSettings, request.model);
      if (choice.strategy !== "prompts") return undefined; // another strategy is selected
      const cut = findCutPoint(request.messages, {
        keepRecentTokens: choice.keepRecentTokens,
        tokensBefore: request.tokensBefore,
      });
      if (!cut) return undefined;
      const earlier = (request.previousSummary ?? "").split("\n").filter((line) => line.startsWith("- "));
      const asked = request.messages
        .slice(cut.start, cut.firstKeptIndex)
        .filter((m) => m.role === "user" && m.kind === undefined)
        .map((m) => `- ${textOf(m).replace(/\s+/g, " ").slice(0, 200)}`);
      const prompts = [...earlier, ...asked].slice(-api.settings.maxPrompts);
      return {
        summary: neutralizeSummary(`${HEADING}\n${prompts.join("\n")}`),
        firstKeptIndex: cut.firstKeptIndex,
        details: { prompts: prompts.length },
      };
    });
  },
});
