/**
 * The lock and the tree hash: one hash for one tree, whatever order the files were written in; a changed
 * content, a changed exec bit or a new file changes it; a damaged keel.lock is an error naming the file.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { LOCK_FILE, readLock, treeHash } from "../src/index.ts";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "keel-plugin-lock-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

it("gives one hash for the same files, in whatever order they were written", () => {
  const a = tree({ "package.json": "{}", "src/index.ts": "export {};" });
  const b = tree({ "src/index.ts": "export {};", "package.json": "{}" });
  expect(treeHash(a)).toBe(treeHash(b));
  expect(treeHash(a)).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
});

it("changes with a file's content, its exec bit, and a new file", () => {
  const root = tree({ "package.json": "{}", "bin.js": "1" });
  const before = treeHash(root);
  writeFileSync(join(root, "bin.js"), "2");
  const edited = treeHash(root);
  chmodSync(join(root, "bin.js"), 0o755);
  const executable = treeHash(root);
  writeFileSync(join(root, "extra.js"), "");
  expect(new Set([before, edited, executable, treeHash(root)]).size).toBe(4);
});

it("reads a scope without a lock as empty, and refuses a damaged one naming the file", () => {
  const scope = tree({});
  expect(readLock(scope).plugins).toEqual({});
  writeFileSync(join(scope, LOCK_FILE), JSON.stringify({ lockfileVersion: 1, plugins: { x: { version: 1 } } }));
  expect(() => readLock(scope)).toThrow(`${join(scope, LOCK_FILE)} is not a keel.lock this keel can read`);
});
