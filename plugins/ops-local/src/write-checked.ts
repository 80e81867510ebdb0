/**
 * Writes a confined path atomically: write-file-atomic writes a temp file beside the target and renames it
 * over, so a crash leaves the old file or the new one, never half of one. Before the rename we check the temp
 * file landed where the confined path said (write-file-atomic follows a final symlink, which an attacker
 * could swap in after our check) and that its folder is still inside a writable root.
 */
import { realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { basename, dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { PathAccessError } from "@keel/extensions-api";
import { MAX_NAME_BYTES } from "@keel/extensions-api/paths";

/** write-file-atomic's temp file is the target's name plus `.` and up to ten digits, within NAME_MAX. */
export const MAX_WRITABLE_NAME_BYTES = MAX_NAME_BYTES - 11;

export async function writeChecked(input: string, real: string, data: string | Uint8Array): Promise<void> {
  const nameBytes = new TextEncoder().encode(basename(real)).length;
  if (nameBytes > MAX_WRITABLE_NAME_BYTES) {
    throw new PathAccessError(input, `its name is ${nameBytes} bytes; files are written through a temp file named after them, so names written may be at most ${MAX_WRITABLE_NAME_BYTES} bytes. Use a shorter name`);
  }
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
