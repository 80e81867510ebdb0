// The layers (CONTRIBUTING.md): plugins and the libraries keel or its plugins load never import the host
// (@keel/core) or the kernel (@keel/kernel), by their source or their package.json. The test kit is the one
// package built on the host: it runs a whole keel for a plugin's tests, and keel itself never loads it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
/** An import, dynamic import or require of the host or the kernel (a subpath included). */
const HOST =
  /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["'](@keel\/(?:core|kernel))(?:\/[^"']*)?["']/gm;
const ON_THE_HOST = ["libs/testing"];

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? files(path) : /\.(ts|mts|cts|js|mjs|cjs)$/.test(e.name) ? [path] : [];
  });
}

const packages = ["plugins", "libs"]
  .flatMap((group) => readdirSync(join(repo, group)).map((name) => `${group}/${name}`))
  .filter((dir) => existsSync(join(repo, dir, "package.json")) && !ON_THE_HOST.includes(dir));

it("keeps plugins and libraries off the host and the kernel, in their sources", () => {
  const found = packages.flatMap((dir) =>
    files(join(repo, dir, "src")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(HOST)].map((m) => `${file.slice(repo.length)}: ${m[1]}`),
    ),
  );
  expect(found).toEqual([]);
});

it("keeps plugins and libraries off the host and the kernel, in their dependencies", () => {
  const found = packages.flatMap((dir) => {
    const pkg = JSON.parse(readFileSync(join(repo, dir, "package.json"), "utf8")) as Record<string, object>;
    const deps = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"].flatMap((k) =>
      Object.keys(pkg[k] ?? {}),
    );
    return deps.filter((d) => d === "@keel/core" || d === "@keel/kernel").map((d) => `${dir}: ${d}`);
  });
  expect(found).toEqual([]);
});
