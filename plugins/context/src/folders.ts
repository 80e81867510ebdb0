/**
 * The folders project context comes from: the working folder and each parent up to the repository root (the
 * nearest folder holding `.git`), widest first. Outside a repository only the working folder counts, so a
 * stray AGENTS.md in the home folder or / is not read for every project under it.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

export interface ProjectFolders {
  /** Widest first, ending with the working folder. */
  chain: string[];
  /** The folder holding `.git`, when the working folder is inside a repository. */
  repoRoot?: string;
}

export function projectFolders(cwd: string): ProjectFolders {
  const chain: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (existsSync(join(dir, ".git"))) return { chain, repoRoot: dir };
    if (dirname(dir) === dir) return { chain: [cwd] };
  }
}
