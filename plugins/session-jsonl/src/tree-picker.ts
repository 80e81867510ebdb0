/**
 * `/tree` without arguments, where a UI can ask: the prompts and bookmarked entries of the session as a
 * select (a dialog in the terminal UI, a numbered question in the line chat), the picked one the place to
 * continue from. Where nobody can be asked, or nothing is picked, `/tree` shows the tree as text instead.
 */
import type { Runtime } from "@keel/extensions-api";
import type { SessionController } from "./controller.ts";
import { describeEntry, labelsOf } from "./tree.ts";

/** The id of the entry picked, or undefined (nothing recorded, nobody to ask, dismissed). */
export async function pickEntry(controller: SessionController, runtime: Runtime): Promise<string | undefined> {
  const current = controller.current();
  if (!current || runtime.isRunning) return undefined;
  const labels = labelsOf(current.session.entries);
  const shown = current.session.entries.filter(
    (e) => (e.type === "message" && e.message.role === "user") || labels.has(e.id),
  );
  if (shown.length === 0) return undefined;
  const options = shown.map((e) => {
    const label = labels.get(e.id);
    const here = e.id === current.leafId ? "  (here)" : "";
    return `${describeEntry(e)}${label ? `  [${label}]` : ""}${here}  ${e.id.slice(0, 8)}`;
  });
  const answer = await runtime.ask({ kind: "select", title: "Continue from", options });
  const i = answer?.kind === "select" ? options.indexOf(answer.value) : -1;
  return i < 0 ? undefined : shown[i]!.id;
}
