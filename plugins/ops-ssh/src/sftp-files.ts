/**
 * File contents over SFTP, through what the helper checked and holds open: a read opens `/proc/<helper>/fd/<n>`,
 * the very file checked; a write creates a temp file in the held folder (`/proc/<helper>/fd/<n>/<name>.<hex>`,
 * exclusively), writes, flushes (`fsync@openssh.com`) and renames it over the target with
 * `posix-rename@openssh.com`, since plain SFTP rename refuses an existing target. A crash leaves the old file or
 * the new one; an existing file keeps its permissions.
 */
import { randomBytes } from "node:crypto";
import type { SFTPWrapper } from "ssh2";

const CHUNK = 32 * 1024;
const IN_FLIGHT = 16;

/** Node's code for an SFTP status: 2 no such file, 3 permission denied. */
function nodeError(error: Error & { code?: unknown }, what: string, path: string): Error {
  const code = error.code === 2 ? "ENOENT" : error.code === 3 ? "EACCES" : "EIO";
  return Object.assign(new Error(`${code}: ${error.message}, ${what} '${path}'`), { code, path });
}

function call<T>(run: (done: (error: Error | undefined | null, value?: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
}

export async function readThrough(sftp: SFTPWrapper, proc: string, shown: string): Promise<Uint8Array> {
  try {
    const data = await call<Buffer>((done) => sftp.readFile(proc, done));
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } catch (error) {
    throw nodeError(error as Error, "open", shown);
  }
}

export interface WriteTarget {
  /** `/proc/<helper>/fd/<n>`: the checked folder. */
  folder: string;
  name: string;
  /** The existing file's permissions, kept; undefined for a new file. */
  mode: number | undefined;
}

export async function writeThrough(sftp: SFTPWrapper, target: WriteTarget, data: Uint8Array, shown: string) {
  const temp = `${target.folder}/${target.name}.${randomBytes(5).toString("hex")}`;
  let handle: Buffer | undefined;
  try {
    handle = await call<Buffer>((done) => sftp.open(temp, "wx", { mode: 0o666 }, done));
    const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    let next = 0;
    const writer = async () => {
      while (next < bytes.length) {
        const at = next;
        next += CHUNK;
        const length = Math.min(CHUNK, bytes.length - at);
        await call((done) => sftp.write(handle!, bytes, at, length, at, done));
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
    if (target.mode !== undefined) await call((done) => sftp.fchmod(handle!, target.mode!, done));
    await call((done) => sftp.ext_openssh_fsync(handle!, done));
    await call((done) => sftp.close(handle!, done));
    handle = undefined;
    await call((done) => sftp.ext_openssh_rename(temp, `${target.folder}/${target.name}`, done));
  } catch (error) {
    if (handle) sftp.close(handle, () => {});
    sftp.unlink(temp, () => {});
    throw nodeError(error as Error, "write", shown);
  }
}
