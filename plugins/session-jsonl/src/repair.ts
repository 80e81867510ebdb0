/**
 * Joining a session's parent chain around lines that cannot be read. A damaged line (garbage, a cut-off write,
 * a bad edit by hand) or a `parentId` that names no earlier entry would otherwise end the active branch there
 * and silently drop everything before it. The rule: a parent must be an entry earlier in the file; when it is
 * not, the chain continues at the readable entry just before the child (or before the damaged line whose id
 * it names, when that line still shows its own ids), which is where the writer's leaf was in every session
 * that did not jump. The file is never changed: the repair is made in memory on every load, with a warning.
 */
import type { Entry } from "./format.ts";

/** A line that could not be read as an entry, and the ids its start still shows, if any. */
export interface DamagedLine {
  ids?: { id: string; parentId: string | null };
}

/** One line of the file, in order: an entry, or a damaged line. */
export type FileLine = { entry: Entry } | { damaged: DamagedLine };

/**
 * Entries in file order with every parent that is not an earlier entry replaced as described above; entries
 * that needed no repair are returned as they are. `warn` is told about each repair.
 */
export function repairParents(lines: readonly FileLine[], warn: (message: string) => void): Entry[] {
  const position = new Map<string, { at: number; line: FileLine }>();
  const readableBefore: (string | null)[] = [];
  let lastReadable: string | null = null;
  lines.forEach((line, at) => {
    readableBefore.push(lastReadable);
    const id = "entry" in line ? line.entry.id : line.damaged.ids?.id;
    if (id !== undefined && !position.has(id)) position.set(id, { at, line });
    if ("entry" in line) lastReadable = line.entry.id;
  });

  /** Where the chain of the entry at `at` continues when its parent is `parentId`. */
  const parentFor = (parentId: string | null, at: number): string | null => {
    let from = at;
    for (let id = parentId; id !== null;) {
      const found = position.get(id);
      if (!found || found.at >= from) return readableBefore[from]!;
      if ("entry" in found.line) return id;
      from = found.at;
      id = found.line.damaged.ids!.parentId;
    }
    return null;
  };

  const out: Entry[] = [];
  lines.forEach((line, at) => {
    if (!("entry" in line)) return;
    const { entry } = line;
    const parentId = entry.parentId === null ? null : parentFor(entry.parentId, at);
    if (parentId === entry.parentId) {
      out.push(entry);
      return;
    }
    const joined =
      parentId === null ? "it starts the branch instead" : `it was joined to ${parentId}, the readable entry before it`;
    warn(
      `entry ${entry.id} names a parent ${entry.parentId} that is not an earlier readable entry (a ` +
        `damaged line?); ${joined}`,
    );
    out.push({ ...entry, parentId });
  });
  return out;
}
