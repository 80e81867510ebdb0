/**
 * The fingerprint of an installed plugin's folder: one sha512 over every file's path and content (symlinks by
 * their target), in a fixed order, so the same tree gives the same hash on any machine. The installer writes it
 * to keel.lock; the host recomputes it at load when the folder's stamps changed (`verify.ts`).
 */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { join } from "node:path";

/** One file of a tree as the file system shows it without reading it: what the stamp cache compares. */
export interface FileStamp {
  /** Path relative to the tree's root, `/`-separated. */
  path: string;
  stats: Stats;
}

/** Every file and symlink under `root`, sorted by path; folders are walked, not listed. */
export function walkTree(root: string): FileStamp[] {
  const out: FileStamp[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const stats = lstatSync(full);
      const path = prefix ? `${prefix}/${name}` : name;
      if (stats.isDirectory()) walk(full, path);
      else out.push({ path, stats });
    }
  };
  walk(root, "");
  return out;
}

/**
 * A compact text of the files' sizes and times: equal stamps mean the tree was not written since it was hashed.
 * ctime is in it because no program can set it back (a `touch -r` that restores mtime still moves ctime).
 */
export function treeStamps(files: FileStamp[]): string {
  return files.map((f) => `${f.path}:${f.stats.size}:${f.stats.mtimeMs}:${f.stats.ctimeMs}`).join("\n");
}

/** `sha512-<base64>` of the tree, in the form of npm's integrity strings. */
export function treeHash(root: string, files: FileStamp[] = walkTree(root)): string {
  const hash = createHash("sha512");
  for (const file of files) {
    const full = join(root, file.path);
    if (file.stats.isSymbolicLink()) hash.update(`l\0${file.path}\0${readlinkSync(full)}\n`);
    else {
      const mode = file.stats.mode & 0o111 ? "x" : "f";
      hash.update(`${mode}\0${file.path}\0${createHash("sha512").update(readFileSync(full)).digest("hex")}\n`);
    }
  }
  return `sha512-${hash.digest("base64")}`;
}
