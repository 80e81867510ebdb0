/**
 * The checked-out branch, read from `.git/HEAD` (one small file; no git process at startup). A worktree's
 * `.git` is a file naming the real git folder.
 */
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export function gitBranch(repoRoot: string): string | undefined {
  try {
    let gitDir = join(repoRoot, ".git");
    if (statSync(gitDir).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, "utf8"));
      if (!pointer) return undefined;
      gitDir = resolve(repoRoot, pointer[1]!.trim());
    }
    const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
    const ref = /^ref: refs\/heads\/(.+)$/.exec(head);
    if (ref) return ref[1];
    return /^[0-9a-f]{7,}$/.test(head) ? `detached at ${head.slice(0, 7)}` : undefined;
  } catch {
    return undefined;
  }
}
