/**
 * The 300-line rule as scripts/check-lines.js enforces it, run on a scratch tree: a new long file fails, a listed
 * one may not grow past its number, and an entry whose file is short again (or gone) must leave the list.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";

const script = fileURLToPath(new URL("../../scripts/check-lines.js", import.meta.url));
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tree holding `files` (path → number of lines) and, when given, the allow-list. */
function tree(files: Record<string, number>, allowed?: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), "keel-lines-"));
  made.push(root);
  for (const [path, count] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), "x;\n".repeat(count));
  }
  if (allowed) {
    mkdirSync(join(root, "scripts"), { recursive: true });
    writeFileSync(join(root, "scripts/long-files.json"), JSON.stringify(allowed));
  }
  return root;
}

function check(root: string): { code: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [script, root], { encoding: "utf8" });
  return { code: run.status, stderr: run.stderr };
}

it("passes files of 300 lines and fails a longer one that is not listed", () => {
  expect(check(tree({ "src/a.ts": 300 })).code).toBe(0);
  const result = check(tree({ "src/a.ts": 300, "src/b.ts": 301 }));
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("src/b.ts: 301 lines");
  expect(result.stderr).not.toContain("src/a.ts");
});

it("lets a listed file keep or lose lines but not grow past its number", () => {
  expect(check(tree({ "src/long.ts": 340 }, { "src/long.ts": 340 })).code).toBe(0);
  expect(check(tree({ "src/long.ts": 320 }, { "src/long.ts": 340 })).code).toBe(0);
  const grown = check(tree({ "src/long.ts": 341 }, { "src/long.ts": 340 }));
  expect(grown.code).toBe(1);
  expect(grown.stderr).toContain("src/long.ts: 341 lines, more than the 340 listed");
});

it("asks for an entry to go once its file is back within 300 lines or gone", () => {
  const short = check(tree({ "src/long.ts": 300 }, { "src/long.ts": 340 }));
  expect(short.code).toBe(1);
  expect(short.stderr).toContain("src/long.ts: 300 lines now; remove it from the list");
  const gone = check(tree({ "src/other.ts": 10 }, { "src/long.ts": 340 }));
  expect(gone.code).toBe(1);
  expect(gone.stderr).toContain("src/long.ts: listed in scripts/long-files.json but not a source file");
});

it("holds this repository to the rule", () => {
  expect(check(fileURLToPath(new URL("../..", import.meta.url)))).toEqual({ code: 0, stderr: "" });
});
