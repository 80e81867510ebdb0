import { describe, expect, it } from "vitest";
import { globMatcher, literalFolder, ripgrepNameFilter } from "../src/glob.ts";
import { byPath } from "../src/search-files.ts";

describe("globs for find and grep", () => {
  it("matches a pattern without a slash against the name at any depth", () => {
    const test = globMatcher("*.ts");
    expect(["a.ts", "src/a.ts", ".hidden/b.ts", "a.tsx"].map(test)).toEqual([true, true, true, false]);
  });

  it("matches a pattern with a slash against the whole relative path", () => {
    const test = globMatcher("src/**/*.ts");
    expect(["src/a.ts", "src/x/y/a.ts", "lib/src/a.ts"].map((path) => test(path))).toEqual([true, true, false]);
  });

  it.each([
    ["*.ts", ""],
    ["src/*.ts", "src"],
    ["./src/lib/**/*.ts", "src/lib"],
    ["src/{a,b}/*.ts", "src"],
    ["**/src/*.ts", ""],
    ["../up/*.ts", ""],
  ])("finds the literal folders %j starts with: %j", (glob, folder) => {
    expect(literalFolder(glob)).toBe(folder);
  });

  it("narrows ripgrep by file type (names only), never by --glob, which would override .gitignore", () => {
    expect(ripgrepNameFilter("src/**/*.test.ts")).toEqual(["--type-add", "keelglob:*.test.ts", "--type", "keelglob"]);
    expect(ripgrepNameFilter("src/**")).toEqual([]);
    expect(ripgrepNameFilter("!(*.md)")).toEqual([]);
    expect(ripgrepNameFilter("{a/b,c}.ts")).toEqual([]);
  });

  it("orders paths as ripgrep's --sort path does: a folder's contents before longer names", () => {
    expect(["a.txt", "a/z.txt", "a-b", "a", "B", "a/b/c"].sort(byPath)).toEqual([
      "B",
      "a",
      "a/b/c",
      "a/z.txt",
      "a-b",
      "a.txt",
    ]);
  });
});
