/**
 * libs/ as uniform as plugins/: every library has a README, a module header on each source file, and tests of its
 * own. The two still tested only through their users are listed, and the list may only shrink.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const libs = readdirSync(join(repo, "libs")).filter((name) => existsSync(join(repo, "libs", name, "package.json")));
/** Tested through their users only: rpc-server by ui-rpc's and serve's tests, testing by every plugin's. */
const TESTED_ELSEWHERE = ["rpc-server", "testing"];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

it("gives every library a README and a test folder", () => {
  expect(libs.filter((name) => !existsSync(join(repo, "libs", name, "README.md")))).toEqual([]);
  const untested = libs.filter((name) => !existsSync(join(repo, "libs", name, "test")));
  expect(untested).toEqual(TESTED_ELSEWHERE.filter((name) => libs.includes(name)));
});

it("opens every library source file with a module header", () => {
  const bare = libs
    .flatMap((name) => sources(join(repo, "libs", name, "src")))
    .filter((file) => !/^\s*(\/\*\*|\/\/)/.test(readFileSync(file, "utf8")))
    .map((file) => relative(repo, file));
  expect(bare).toEqual([]);
});

it("names every library in the README's layout table (a newcomer finds libs/rpc-client there)", () => {
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  const row = readme.split("\n").find((line) => line.startsWith("| `libs/` |")) ?? "";
  const named = (name: string) =>
    (JSON.parse(readFileSync(join(repo, "libs", name, "package.json"), "utf8")) as { name: string }).name;
  expect(libs.filter((name) => !row.includes(`\`${named(name)}\``))).toEqual([]);
});
