/**
 * The contract's helper subpaths are listed by `extensions-api/package.json`'s `exports`; every other place that
 * names them (the package's header, CONTRIBUTING.md, the host's module catalog and its map) must name the same
 * set, so a subpath added, renamed or dropped in one place cannot be forgotten in another.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const read = (file: string) => readFileSync(join(repo, file), "utf8");

/** The subpaths the package exports, as `/name`. */
function exported(packageJson: string): string[] {
  const exports = (JSON.parse(packageJson) as { exports: Record<string, unknown> }).exports;
  return Object.keys(exports)
    .filter((key) => key !== "." && key !== "./package.json")
    .map((key) => key.slice(1));
}

const backticked = (text: string) => [...text.matchAll(/`(\/[a-z][a-z-]*)`/g)].map((m) => m[1]!);
const specifiers = (text: string) => [...text.matchAll(/"@keel\/extensions-api(\/[a-z-]+)"/g)].map((m) => m[1]!);

/** Each copy of the list, by where it is, as the subpaths it names. */
function copies(files: (file: string) => string): Record<string, string[]> {
  const header = /^\/\*\*[\s\S]*?\*\//.exec(files("extensions-api/src/index.ts"))?.[0] ?? "";
  const row = files("CONTRIBUTING.md")
    .split("\n")
    .find((line) => line.startsWith("| `extensions-api/` |"));
  const catalog = /HOST_MODULES = \[[\s\S]*?\]/.exec(files("core/src/host/host-specifiers.ts"))?.[0] ?? "";
  const map = /hostModules[^=]*= \{[\s\S]*?\n\};/.exec(files("core/src/host/host-modules.ts"))?.[0] ?? "";
  return {
    "extensions-api/src/index.ts (header)": backticked(header),
    "CONTRIBUTING.md (extensions-api row)": backticked(row ?? ""),
    "core/src/host/host-specifiers.ts (HOST_MODULES)": specifiers(catalog),
    "core/src/host/host-modules.ts (hostModules)": specifiers(map),
  };
}

/** The copies that name another set than the package exports, with what each lacks and adds. */
function disagreements(files: (file: string) => string): string[] {
  const truth = new Set(exported(files("extensions-api/package.json")));
  return Object.entries(copies(files)).flatMap(([where, named]) => {
    const names = new Set(named);
    const missing = [...truth].filter((s) => !names.has(s));
    const extra = [...names].filter((s) => !truth.has(s));
    return missing.length + extra.length === 0
      ? []
      : [`${where}: missing ${missing.join(" ") || "nothing"}; not exported ${extra.join(" ") || "nothing"}`];
  });
}

it("every copy of the subpath list names what extensions-api/package.json exports", () => {
  expect(exported(read("extensions-api/package.json")).length).toBeGreaterThan(5);
  expect(disagreements(read)).toEqual([]);
});

it("names the copy that disagrees: a subpath exported but not listed, and one listed but not exported", () => {
  const pkg = JSON.parse(read("extensions-api/package.json")) as { exports: Record<string, unknown> };
  delete pkg.exports["./sleep"];
  pkg.exports["./brand-new"] = "./dist/brand-new.js";
  const tampered = (file: string) => (file === "extensions-api/package.json" ? JSON.stringify(pkg) : read(file));
  const problems = disagreements(tampered);
  expect(problems).toHaveLength(4);
  for (const problem of problems) expect(problem).toMatch(/missing \/brand-new; not exported \/sleep$/);
});
