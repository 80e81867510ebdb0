import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { afterAll, describe, expect, it } from "vitest";
import { onlyUnreadableFiles } from "../src/grep-ripgrep.ts";

// The messages are the real ripgrep's, so a release that words them differently fails here, not in a race.
const folder = mkdtempSync(join(tmpdir(), "keel-rg-errors-"));
writeFileSync(join(folder, "a.txt"), "words\n");
const stderrOf = (...args: string[]) =>
  spawnSync(rgPath, ["--no-config", ...args], { cwd: folder, encoding: "utf8" }).stderr.trim();

describe("ripgrep's failures that grep skips", () => {
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("skips files ripgrep could not read, one or several, without naming them", () => {
    const one = stderrOf("words", "./gone-outside.txt");
    expect(one).toMatch(/gone-outside\.txt.*os error/);
    expect(onlyUnreadableFiles(one)).toBe(true);
    expect(onlyUnreadableFiles(stderrOf("words", "./gone-1.txt", "./gone-2.txt", "."))).toBe(true);
  });

  it("still reports anything else: a bad pattern, an unknown flag, or nothing said", () => {
    expect(onlyUnreadableFiles(stderrOf("a(", "."))).toBe(false);
    expect(onlyUnreadableFiles(stderrOf("--no-such-flag", "words"))).toBe(false);
    expect(onlyUnreadableFiles(`${stderrOf("words", "./gone.txt")}\n${stderrOf("a(", ".")}`)).toBe(false);
    expect(onlyUnreadableFiles("")).toBe(false);
  });
});
