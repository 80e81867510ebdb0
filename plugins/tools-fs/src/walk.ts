/**
 * The search fallback: every file under a folder, found with `ops.list` alone so it works on any backend.
 * It sees what ripgrep sees: hidden files included, `.git` skipped, symlinks not followed, `.gitignore` files
 * honoured from the workspace root down.
 */
import { posix } from "node:path";
import { isWithin } from "@keel/extensions-api/paths";
import type { DirEntry, Operations } from "@keel/extensions-api";
import { decodeText } from "./content-kind.ts";
import { GitignoreRules } from "./gitignore.ts";

async function readGitignore(ops: Operations, folder: string): Promise<string | undefined> {
  try {
    return decodeText(await ops.readFile(posix.join(folder, ".gitignore")));
  } catch {
    return undefined; // absent or unreadable: no rules from here
  }
}

/**
 * Rules from `.gitignore` files in the folders from the workspace root down to `start`'s parent, asked about
 * paths relative to `start`. Like ripgrep, a folder named explicitly is searched even when they ignore it.
 */
async function inheritedRules(ops: Operations, start: string): Promise<GitignoreRules> {
  const abs = posix.resolve(ops.cwd, start);
  if (abs === ops.cwd || !isWithin(ops.cwd, abs)) return GitignoreRules.empty();
  const fromRoot = posix.relative(ops.cwd, abs);
  const names = fromRoot.split("/");
  let rules = GitignoreRules.empty();
  for (let depth = 0; depth < names.length; depth++) {
    const folder = names.slice(0, depth).join("/");
    const content = await readGitignore(ops, posix.join(ops.cwd, folder));
    if (content !== undefined) rules = rules.with(folder, content);
  }
  return rules.ignores(fromRoot, true) ? GitignoreRules.empty() : rules.from(fromRoot);
}

/** A folder's entries; a subfolder that cannot be read is skipped, as ripgrep skips it. */
async function listOrSkip(ops: Operations, folder: string, isStart: boolean): Promise<DirEntry[]> {
  try {
    return await ops.list(folder);
  } catch (error) {
    if (isStart) throw error;
    return [];
  }
}

/**
 * Paths of all files under `start` (a folder path the backend accepts), relative to it, `/`-separated,
 * in no particular order. Throws what `ops.list` throws for `start` itself.
 */
export async function listFiles(ops: Operations, start: string, signal: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  const pending: { relative: string; rules: GitignoreRules }[] = [
    { relative: "", rules: await inheritedRules(ops, start) },
  ];
  while (pending.length > 0) {
    if (signal.aborted) throw new Error("The search was aborted.");
    const { relative, rules: outer } = pending.pop()!;
    const folder = relative === "" ? start : posix.join(start, relative);
    const entries = await listOrSkip(ops, folder, relative === "");
    let rules = outer;
    if (entries.some((entry) => entry.name === ".gitignore" && entry.kind === "file")) {
      const content = await readGitignore(ops, folder);
      if (content !== undefined) rules = rules.with(relative, content);
    }
    for (const entry of entries) {
      if (entry.name === ".git") continue;
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.kind === "directory") {
        if (!rules.ignores(path, true)) pending.push({ relative: path, rules });
      } else if (entry.kind === "file" && !rules.ignores(path, false)) {
        files.push(path);
      }
    }
  }
  return files;
}
