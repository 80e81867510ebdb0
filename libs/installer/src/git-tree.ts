/**
 * A git source that is not an npm package (a Claude Code, Codex or Gemini plugin has no package.json, which
 * pacote needs to pack one): cloned with git itself, hooks off, checked out at the ref or commit asked for — a
 * commit pin must be what is checked out, or nothing is installed — and its folder (or `::path:` subfolder) copied
 * into the staging folder without `.git`. The lock then records the commit and the tree hash, as for any git
 * install.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { RefusedError } from "./check.ts";

const git = (cwd: string, args: string[]) =>
  execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();

/** Copies the package at `url#ref[::path:sub]` into `stage`; returns the commit URL and commit. */
export function fetchGitTree(
  url: string,
  ref: string | undefined,
  stage: string,
): { resolved: string; commit: string } {
  // npm's git spec: `#<committish>::path:<folder>`, either part optional.
  const parts = (ref ?? "").split("::").filter(Boolean);
  const committish = parts.find((part) => !part.startsWith("path:"));
  const sub = parts.find((part) => part.startsWith("path:"))?.slice(5) ?? "";
  const dir = mkdtempSync(join(tmpdir(), "keel-git-"));
  try {
    try {
      git(dir, ["clone", "--quiet", "--no-checkout", url, "repo"]);
      git(join(dir, "repo"), ["checkout", "--quiet", "--detach", committish || "HEAD"]);
    } catch (error) {
      const why = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split("\n").at(-1);
      throw new RefusedError(`could not fetch ${url}${ref ? `#${ref}` : ""}: ${why}`);
    }
    const commit = git(join(dir, "repo"), ["rev-parse", "HEAD"]);
    if (/^[0-9a-f]{40}$/.test(committish ?? "") && commit !== committish)
      throw new RefusedError(
        `${url}: the commit checked out is ${commit}, not the pinned ${committish}; not installed`,
      );
    const from = join(dir, "repo", sub);
    if (relative(join(dir, "repo"), from).startsWith("..") || !statSync(from, { throwIfNoEntry: false })?.isDirectory())
      throw new RefusedError(`${url} at ${commit} has no folder "${sub}"`);
    cpSync(from, stage, { recursive: true, filter: (path) => !path.split("/").includes(".git") });
    return { resolved: `git+${url}#${commit}`, commit };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
