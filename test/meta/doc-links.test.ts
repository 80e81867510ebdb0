// The documentation is read in a clone of this repository: a link or a path it names must be inside it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "node_modules" || e.name === "dist" || e.name.startsWith(".")) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? markdownFiles(path) : e.name.endsWith(".md") ? [path] : [];
  });
}

/** Relative link targets and backticked `../` paths that leave the repository or name nothing in it. */
function badLinks(root: string): string[] {
  return markdownFiles(root).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    const links = [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((t) => !/^[a-z]+:/i.test(t));
    const paths = [...text.matchAll(/`(\.\.\/[^`\s]+)`/g)].map((m) => m[1]!);
    return [...links, ...paths].flatMap((target) => {
      const full = resolve(dirname(file), target);
      const where = `${relative(root, file)}: ${target}`;
      if (relative(root, full).startsWith("..")) return [`${where} (outside the repository)`];
      return existsSync(full) ? [] : [`${where} (no such file)`];
    });
  });
}

it("links only to files inside the repository", () => {
  expect(badLinks(repo)).toEqual([]);
});

it("keeps docs/architecture.md a map of at most 300 lines (the detail lives in docs/design/ and the READMEs)", () => {
  const lines = readFileSync(join(repo, "docs/architecture.md"), "utf8").split("\n").length - 1;
  expect(lines).toBeLessThanOrEqual(300);
});
