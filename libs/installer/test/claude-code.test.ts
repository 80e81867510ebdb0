/**
 * Claude Code's marketplace sources read as keel sources (every form seen in the wild), a sha pin kept and
 * honoured at the commit it names, a git-subdir folder fetched, a source keel cannot take refused with its reason,
 * and `renames` followed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCatalog } from "../src/catalog-parse.ts";
import { sourceOf } from "../src/claude-code.ts";
import { fetchGitTree } from "../src/git-tree.ts";
import { resolveName } from "../src/resolve.ts";

const SHA = "30287f5e3f122a646d1ac5ca3ab96e130c52a3ad";

describe("Claude Code's source forms", () => {
  it("keeps a sha pin over the ref for github, url and git-subdir sources", () => {
    expect(sourceOf({ source: "github", repo: "o/r", ref: "main", sha: SHA })).toBe(
      `git:https://github.com/o/r.git#${SHA}`,
    );
    expect(sourceOf({ source: "url", url: "https://h/x.git", ref: "v1" })).toBe("git:https://h/x.git#v1");
    expect(sourceOf({ source: "url", url: "https://h/x.git", sha: SHA })).toBe(`git:https://h/x.git#${SHA}`);
    expect(sourceOf({ source: "git-subdir", url: "https://h/x.git", path: "plugins/a", ref: "main", sha: SHA })).toBe(
      `git:https://h/x.git#${SHA}::path:plugins/a`,
    );
    expect(sourceOf({ source: "npm", package: "@acme/p", version: "1.2.0" })).toBe("npm:@acme/p@1.2.0");
    expect(sourceOf("./plugins/a")).toBe("./plugins/a");
  });

  it("says why for a form keel cannot take, and resolving it refuses with that reason", () => {
    expect(sourceOf({ source: "pip", package: "x" })).toBe(
      'unsupported:its source type "pip" is not one keel installs from',
    );
    expect(sourceOf({ source: "git-subdir", url: "https://h/x.git", path: "../up" })).toMatch(/leaves the repository/);
    expect(sourceOf({ source: "url", url: "https://h/x.git", sha: "abc" })).toMatch(/not a full 40-hex commit/);
    const catalog = parseCatalog(
      JSON.stringify({
        name: "m",
        owner: { name: "o" },
        metadata: {},
        renames: { old: "p" },
        plugins: [{ name: "p", source: { source: "pip", package: "x" } }],
      }),
      "marketplace.json",
    );
    const records = [{ origin: "/tmp/m/marketplace.json", updatedAt: "", catalog }];
    expect(() => resolveName(records, { name: "p", range: "*" }, "/tmp")).toThrow(
      'p in the catalog "m": its source type "pip" is not one keel installs from; keel cannot install it',
    );
    expect(() => resolveName(records, { name: "old", range: "*" }, "/tmp")).toThrow(/"pip"/);
  });
});

describe("fetching a git source that is not an npm package", () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@e", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" }).trim();

  it("checks out the pinned commit, not the branch head, and copies only the subfolder asked for", () => {
    const repo = mkdtempSync(join(tmpdir(), "keel-pin-"));
    git(repo, "init", "-q", "-b", "main");
    execFileSync("mkdir", ["-p", join(repo, "plugins/a")]);
    writeFileSync(join(repo, "plugins/a/file.txt"), "pinned\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "one");
    const pinned = git(repo, "rev-parse", "HEAD");
    writeFileSync(join(repo, "plugins/a/file.txt"), "head\n");
    git(repo, "commit", "-q", "-am", "two");
    const stage = mkdtempSync(join(tmpdir(), "keel-stage-"));
    const got = fetchGitTree(`file://${repo}`, `${pinned}::path:plugins/a`, stage);
    expect(got.commit).toBe(pinned);
    expect(readFileSync(join(stage, "file.txt"), "utf8")).toBe("pinned\n");
    expect(() => fetchGitTree(`file://${repo}`, "path:nowhere", mkdtempSync(join(tmpdir(), "k-")))).toThrow(
      /has no folder "nowhere"/,
    );
  });
});
