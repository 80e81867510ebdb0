/**
 * Removing a file or a whole folder tree through checked descriptors: each folder is opened without following
 * a symlink from the one above it and emptied through its own descriptor, and a symlink is unlinked, never
 * followed. A recursive removal by path would follow a folder swapped for a symlink midway and empty the
 * folder outside it leads to.
 */
import { promises as fs } from "node:fs";
import { type CheckedDir, errorCode } from "./checked-dir.ts";

/** Removes `name` inside the checked folder `dir`; `input` is the path the caller asked for. */
export async function removeIn(dir: CheckedDir, name: string, input: string): Promise<void> {
  let folder: CheckedDir;
  try {
    folder = dir.child(name, input);
  } catch (error) {
    const code = errorCode(error);
    // Not a folder (a file, or a symlink, which O_NOFOLLOW refuses to open): unlink the entry itself.
    if (code !== "ENOTDIR" && code !== "EPATHACCESS") throw error;
    await fs.unlink(dir.path(name));
    return;
  }
  try {
    for (const entry of await fs.readdir(folder.path())) await removeIn(folder, entry, input);
  } finally {
    folder.close();
  }
  await fs.rmdir(dir.path(name));
}
