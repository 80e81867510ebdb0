/**
 * Reads a file whose path was already confined, without trusting that nothing changed since: the final name
 * is opened with O_NOFOLLOW (a symlink swapped in fails to open), and on Linux the opened descriptor's real
 * path is checked again, which also catches a parent folder swapped for a symlink.
 */
import { constants, promises as fs } from "node:fs";
import { PathAccessError } from "@keel/extensions-api";
import { pathOfDescriptor } from "./checked-dir.ts";
import type { Confinement } from "./confine.ts";

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * The whole file in as few reads as its size allows: `FileHandle.readFile` reads in small chunks, each a trip
 * through the thread pool, which makes a 10 MB file many times slower than one read into a buffer of its size.
 */
async function readAll(handle: fs.FileHandle, size: number): Promise<Uint8Array> {
  let buffer = Buffer.allocUnsafe(Math.max(size, 1));
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      // The file grew since fstat: keep reading.
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
}

/** Reads `real` (returned by `Confinement.resolve` for `input`) and re-checks what was actually opened. */
export async function readChecked(confinement: Confinement, input: string, real: string): Promise<Uint8Array> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(real, OPEN_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new PathAccessError(input, "it became a symlink after it was checked; refusing to follow it");
    }
    throw error;
  }
  try {
    const opened = pathOfDescriptor(handle.fd);
    if (opened !== undefined) confinement.checkOpened(input, opened, "read");
    const info = await handle.stat();
    if (info.isDirectory()) throw errnoError("EISDIR", `EISDIR: ${input} is a folder, not a file`);
    if (!info.isFile())
      throw new PathAccessError(input, "it is not a regular file (a pipe, socket or device); only files can be read");
    return await readAll(handle, info.size);
  } finally {
    await handle.close();
  }
}
