/**
 * The one path check of the local backend: text limits, then the root the text names, then the root the real
 * path lands in, then write access. Every operation, `spawn`'s working folder included, goes through here.
 */
import { basename, dirname, join, resolve as resolvePath } from "node:path";
import { PathAccessError } from "@keel/extensions-api";
import { pathTextProblem } from "@keel/extensions-api/paths";
import { realPathOf, SymlinkLoopError } from "./real-path.ts";
import type { Root, Roots } from "./roots.ts";

export type Access = "read" | "write";

/**
 * `follow`: the real path of what the path names (reads, writes, listing).
 * `entry`: the folder entry itself, a final symlink not followed (stat, remove).
 */
export type ResolveMode = "follow" | "entry";

export class Confinement {
  constructor(readonly roots: Roots) {}

  /** The absolute real path to use for `input`, or a thrown `PathAccessError` saying why not. */
  resolve(input: string, access: Access, mode: ResolveMode = "follow"): string {
    const refuse = (reason: string) => new PathAccessError(input, reason);
    const textProblem = pathTextProblem(input);
    if (textProblem) throw refuse(textProblem);
    const abs = resolvePath(this.roots.workspace.path, input);
    const absProblem = pathTextProblem(abs);
    if (absProblem) throw refuse(`resolved against the workspace, ${absProblem}`);
    if (!this.roots.byText(abs))
      throw refuse(`it lies outside ${this.roots.describe()}; use a path inside the workspace`);

    let real: string;
    try {
      real = mode === "entry" && !this.isRoot(abs) ? join(realPathOf(dirname(abs)), basename(abs)) : realPathOf(abs);
    } catch (error) {
      if (error instanceof SymlinkLoopError) throw refuse(`it goes through a symlink loop (${error.message})`);
      throw error;
    }
    const root = this.roots.byReal(real);
    if (!root) throw refuse(`it leads through a symlink to ${real}, outside ${this.roots.describe()}`);
    if (access === "write") this.checkWritable(input, root);
    return real;
  }

  /** Throws unless the real path `real`, found after opening a file, is still inside a root. */
  checkOpened(input: string, real: string, access: Access): void {
    const root = this.roots.byReal(real);
    if (!root)
      throw new PathAccessError(
        input,
        `it was changed while being opened and now leads to ${real}, outside ${this.roots.describe()}`,
      );
    if (access === "write") this.checkWritable(input, root);
  }

  isRoot(abs: string): boolean {
    return this.roots.all.some((root) => root.path === abs || root.real === abs);
  }

  private checkWritable(input: string, root: Root): void {
    if (!root.writable)
      throw new PathAccessError(
        input,
        `it is inside ${root.path}, an allowed root for reading only; writing there is not allowed`,
      );
  }
}
