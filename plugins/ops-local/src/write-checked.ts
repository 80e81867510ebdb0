/**
 * Writes a confined path atomically, inside a folder checked by its descriptor (./checked-dir.ts): the temp
 * file is created there with O_EXCL|O_NOFOLLOW, written, flushed, and renamed over the target there, so a
 * crash leaves the old file or the new one, and a folder swapped for a symlink meanwhile cannot make either
 * step land outside. (write-file-atomic, used before, works by path, which is the gap this closes.) An
 * existing file keeps its permissions.
 */
import { randomBytes } from "node:crypto";
import { constants, lstatSync, promises as fs, readlinkSync } from "node:fs";
import { basename, dirname } from "node:path";
import { PathAccessError } from "@keel/extensions-api";
import { MAX_NAME_BYTES } from "@keel/extensions-api/paths";
import { CheckedDir, errorCode } from "./checked-dir.ts";
import type { Confinement } from "./confine.ts";

const TEMP_SUFFIX_BYTES = 11;
/** The temp file is the target's name plus `.` and ten hex digits, within NAME_MAX. */
export const MAX_WRITABLE_NAME_BYTES = MAX_NAME_BYTES - TEMP_SUFFIX_BYTES;
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** The permissions to keep: those of the regular file at `name`, or undefined for a new one. */
function existingMode(dir: CheckedDir, name: string, input: string): number | undefined {
  try {
    const info = lstatSync(dir.path(name));
    if (info.isSymbolicLink()) {
      throw new PathAccessError(
        input,
        `it became a symlink to ${readlinkSync(dir.path(name))} after it was checked; nothing was written`,
      );
    }
    return info.isFile() ? info.mode & 0o7777 : undefined;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/** Writes `data` to `real`, which `confinement.resolve(input, "write")` returned. */
export async function writeChecked(
  confinement: Confinement,
  input: string,
  real: string,
  data: string | Uint8Array,
): Promise<void> {
  const name = basename(real);
  const nameBytes = Buffer.byteLength(name);
  if (nameBytes > MAX_WRITABLE_NAME_BYTES) {
    throw new PathAccessError(
      input,
      `its name is ${nameBytes} bytes; files are written through a temp file named after them, so ` +
        `names written may be at most ${MAX_WRITABLE_NAME_BYTES} bytes. Use a shorter name`,
    );
  }
  const dir = CheckedDir.create(confinement, input, dirname(real));
  const temp = `${name}.${randomBytes((TEMP_SUFFIX_BYTES - 1) / 2).toString("hex")}`;
  try {
    const mode = existingMode(dir, name, input);
    const handle = await fs.open(dir.path(temp), TEMP_FLAGS, 0o666);
    try {
      if (mode !== undefined) await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(dir.path(temp), dir.path(name));
  } catch (error) {
    await fs.unlink(dir.path(temp)).catch(() => {}); // absent when it was never created
    throw error;
  } finally {
    dir.close();
  }
}
