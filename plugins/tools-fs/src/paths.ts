/**
 * How tools name paths back to the model: relative to the workspace when inside it (so the model can pass
 * them straight to another tool), absolute otherwise (an allowed root). And the words for the errors a file
 * operation raises, so every tool says "not found" the same way.
 */
import { posix } from "node:path";
import { PathAccessError } from "@keel/extensions-api";
import type { Operations } from "@keel/extensions-api";

/** The workspace-relative form of `input` (`.` for the workspace itself), or its absolute form when outside. */
export function displayPath(cwd: string, input: string): string {
  const abs = posix.resolve(cwd, input);
  if (abs === cwd) return ".";
  return abs.startsWith(`${cwd}/`) ? abs.slice(cwd.length + 1) : abs;
}

/** `child` (a `/`-separated path relative to the folder shown as `parent`) as the model should see it. */
export function joinDisplay(parent: string, child: string): string {
  return parent === "." ? child : posix.join(parent, child);
}

/**
 * Rewrites an error from a file operation on `shown` into one the model can act on. PathAccessError already
 * says which path and why; Node errors are turned into words by their code.
 */
export function explainFsError(error: unknown, shown: string, notFoundHint = "Check the path with ls or find."): Error {
  if (error instanceof PathAccessError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return new Error(`File not found: ${shown}. ${notFoundHint}`);
    case "EISDIR":
      return new Error(`${shown} is a folder, not a file. Use ls to see what is in it.`);
    case "ENOTDIR":
      return new Error(`${shown} is not a folder (a part of the path is a file). Check the path with ls.`);
    case "EACCES":
    case "EPERM":
      return new Error(`Permission denied for ${shown}; the file's permissions do not allow this.`);
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}

/** Runs a file operation on `shown`, rethrowing its error in words (see `explainFsError`). */
export async function withFsErrors<T>(shown: string, operation: () => Promise<T>, notFoundHint?: string): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw explainFsError(error, shown, notFoundHint);
  }
}

/**
 * What `path` is once a final symlink is followed: `stat` does not follow it, so a symlink counts as a folder
 * when it can be listed. Undefined when nothing is there.
 */
export async function pathKind(ops: Operations, path: string): Promise<"file" | "directory" | undefined> {
  const info = await ops.stat(path);
  if (!info) return undefined;
  if (info.kind === "directory") return "directory";
  if (info.kind !== "symlink") return "file";
  try {
    await ops.list(path);
    return "directory";
  } catch {
    return "file";
  }
}
