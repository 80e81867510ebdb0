/** Writes a tree of files into a fresh temp folder and returns the folder. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export function writeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "keel-formats-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
