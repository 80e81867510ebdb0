/** The window strategy: drop the oldest whole turns and leave a note of what they did. No model call. */
import { type CompactRequest, type CompactResult } from "@keel/extensions-api";
import { digestActivity, findCutPoint, neutralizeSummary, partsToSummarise } from "@keel/extensions-api/compaction";
import { addDropped, parseNote, renderNote } from "./note.ts";

/** Answers a compact request, or undefined when there is nothing old enough to drop. */
export function compactWindow(request: CompactRequest, keepRecentTokens: number): CompactResult | undefined {
  const cut = findCutPoint(request.messages, { keepRecentTokens, tokensBefore: request.tokensBefore });
  if (!cut) return undefined;
  const { history, turnPrefix } = partsToSummarise(request, cut);
  const record = addDropped(parseNote(request.previousSummary), digestActivity(history), history.length);
  const split = turnPrefix.length > 0 ? { messages: turnPrefix.length, digest: digestActivity(turnPrefix) } : undefined;
  const summary = neutralizeSummary(renderNote(record, split));
  const { earlier: _earlier, ...totals } = record;
  return {
    summary,
    firstKeptIndex: cut.firstKeptIndex,
    details: { strategy: "window", ...totals, splitTurn: split ? split.messages : undefined },
  };
}
