/**
 * The results: one JSON line per task, appended as each task ends, to a file (`--out`) or to stdout. A batch
 * run again with the same file skips the tasks it already has a line for. Each line is one append of a whole
 * line, so a batch killed mid-way leaves at worst a last line without its newline: it is reported, and its task
 * runs again.
 */
import { appendFileSync, readFileSync } from "node:fs";
import type { TaskResult } from "./result.ts";

export interface ResultsSink {
  /** Ids that have a result line: finished tasks, never run again. */
  readonly finished: ReadonlySet<string>;
  /** Writes the line of a task that has none yet; false when it had one (a job delivered twice). */
  write(result: TaskResult): boolean;
}

export function stdoutResults(print: (text: string) => void): ResultsSink {
  const finished = new Set<string>();
  return {
    finished,
    write(result) {
      if (finished.has(result.id)) return false;
      finished.add(result.id);
      print(`${JSON.stringify(result)}\n`);
      return true;
    },
  };
}

/** The results file `path`, created if need be (throws when it cannot be); `warn` hears of lines not results. */
export function fileResults(path: string, warn: (text: string) => void): ResultsSink {
  const finished = new Set<string>();
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    const id = idOf(line);
    if (id === undefined) warn(`${path}:${i + 1} is not a result line; its task, if any, runs again`);
    else finished.add(id);
  });
  appendFileSync(path, ""); // created now: a folder that does not exist is an error before any task runs
  // A last line cut short by a kill gets its newline, so that the next line starts on its own.
  let prefix = text.length > 0 && !text.endsWith("\n") ? "\n" : "";
  return {
    finished,
    write(result) {
      if (finished.has(result.id)) return false;
      appendFileSync(path, `${prefix}${JSON.stringify(result)}\n`);
      prefix = "";
      finished.add(result.id);
      return true;
    },
  };
}

function idOf(line: string): string | undefined {
  try {
    const value = JSON.parse(line) as { id?: unknown };
    return typeof value?.id === "string" ? value.id : undefined;
  } catch {
    return undefined;
  }
}
