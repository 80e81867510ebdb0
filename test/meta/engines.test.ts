/**
 * One statement of which Node keel runs on: the root package.json's `engines`. Every workspace package that says
 * it repeats it, the lines CI tests (scripts/node-lines/package.json) are all inside it, and none of the
 * dependencies a run or an install loads asks for more.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { expect, it } from "vitest";
import { OLDEST_NODE_LINE } from "../../core/src/launch.ts";
import { nodeLines } from "../../scripts/node-lines.mjs";

const ROOT = join(import.meta.dirname, "..", "..");
const read = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8"));
const range: string = read("package.json").engines.node;

function workspacePackages(): string[] {
  const patterns: string[] = read("package.json").workspaces;
  return patterns.flatMap((pattern) =>
    pattern.endsWith("/*")
      ? readdirSync(join(ROOT, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}/package.json`)
      : [`${pattern}/package.json`],
  );
}

it("is the same range in every workspace package that names one", () => {
  const differing = workspacePackages()
    .map((path) => [path, read(path).engines?.node] as const)
    .filter(([, node]) => node !== undefined && node !== range);
  expect(differing).toEqual([]);
});

it("covers every line CI tests, and each line's oldest release it names", () => {
  const lines = nodeLines();
  expect(lines.map(({ line }) => line)).toEqual([22, 24, 26]);
  for (const { version } of lines) expect(semver.satisfies(version, range), version).toBe(true);
  expect(semver.satisfies("20.19.0", range)).toBe(false);
  // The launcher's own refusal of an older line names the same floor, and so does the bin's guard of its V8 flag.
  expect(OLDEST_NODE_LINE).toBe(lines[0]!.line);
  const bin = readFileSync(join(ROOT, "bin", "keel.cjs"), "utf8");
  expect(/if \(line >= (\d+)\) require\("node:v8"\)/.exec(bin)?.[1]).toBe(String(OLDEST_NODE_LINE));
});

it("is no wider than what the installed dependencies ask for", () => {
  const lock = read("package-lock.json").packages as Record<string, { engines?: { node?: string } }>;
  const narrower = Object.entries(lock)
    .filter(([path, pkg]) => path.startsWith("node_modules/") && typeof pkg.engines?.node === "string")
    .filter(([, pkg]) => semver.validRange(pkg.engines!.node!) && !semver.subset(range, pkg.engines!.node!))
    .map(([path, pkg]) => `${path}: ${pkg.engines!.node}`);
  expect(narrower).toEqual([]);
});
