/**
 * Writes a confined path atomically: write-file-atomic writes a temp file beside the target and renames it
 * over, so a crash leaves the old file or the new one, never half of one. Before the rename we check the temp
 * file landed where the confined path said (write-file-atomic follows a final symlink, which an attacker
 * could swap in after our check) and that its folder is still inside a writable root.
 */
import { realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { PathAccessError } from "@keel/extensions-api";

export async function writeChecked(input: string, real: string, data: string | Uint8Array): Promise<void> {
  const folder = dirname(real);
  await mkdir(folder, { recursive: true });
  await writeFileAtomic(real, data, {
    tmpfileCreated(tmpfile) {
      // write-file-atomic names its temp file `<real target>.<number>`.
      const suffix = tmpfile.startsWith(`${real}.`) ? tmpfile.slice(real.length + 1) : "";
      if (!/^\d+$/.test(suffix)) {
        const target = tmpfile.replace(/\.\d+$/, "");
        throw new PathAccessError(input, `it became a symlink to ${target} after it was checked; nothing was written`);
      }
      const folderNow = realpathSync.native(folder);
      if (folderNow !== folder) {
        throw new PathAccessError(input, `its folder was replaced by a symlink to ${folderNow} after it was checked; nothing was written`);
      }
    },
  });
}
