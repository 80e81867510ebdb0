/**
 * One writer per session file. The lock is proper-lockfile's (an atomic `mkdir` of `<file>.lock` whose
 * mtime the holder refreshes; it expires after `staleMs` without refresh). Beside it, `<file>.owner` names the
 * holder's process, so a lock left by a process that died on this machine is taken over at once instead of
 * after the expiry.
 */
import { readFileSync, renameSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { randomHex } from "@keel/extensions-api/random-id";
// Built into the plugin's entry with graceful-fs as node:fs (scripts/build-plugins.mjs): loading it costs no more
// than the plugin's own code, and nothing patches fs.
import * as lockfile from "proper-lockfile";

export interface LockSettings {
  /** A lock not refreshed for this long is considered abandoned. proper-lockfile's minimum is 2,000. */
  staleMs: number;
}

export interface Owner {
  pid: number;
  host: string;
  since: string;
  token: string;
}

export interface HeldLock {
  /** Releases the lock; safe to call twice. */
  release(): void;
}

/** Thrown when another live process holds the lock. */
export class SessionLockedError extends Error {
  constructor(
    readonly file: string,
    readonly owner: Owner | undefined,
  ) {
    const who = owner ? `process ${owner.pid} on ${owner.host}, since ${owner.since}` : "another process";
    super(`${file} is open in ${who}`);
    this.name = "SessionLockedError";
  }
}

const ownerPath = (file: string) => `${file}.owner`;

function readOwner(file: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(ownerPath(file), "utf8")) as Owner;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the lock on `file` or throws `SessionLockedError`. `onLost` runs if the lock is later lost (its
 * refresh failed past the expiry, or another process took it over): the caller must stop writing.
 */
export function acquireLock(file: string, settings: LockSettings, onLost: (reason: string) => void): HeldLock {
  const options = {
    stale: settings.staleMs,
    update: Math.floor(settings.staleMs / 2),
    realpath: false,
    onCompromised: (e: Error) => onLost(e.message),
  };
  let unlock: () => void;
  try {
    unlock = lockfile.lockSync(file, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    const owner = readOwner(file);
    if (!owner || owner.host !== hostname() || isAlive(owner.pid)) throw new SessionLockedError(file, owner);
    // The holder died on this machine: mark its lock expired and let proper-lockfile take it over.
    try {
      utimesSync(`${file}.lock`, 0, 0);
      unlock = lockfile.lockSync(file, options);
    } catch (retryError) {
      if ((retryError as NodeJS.ErrnoException).code === "ELOCKED") throw new SessionLockedError(file, readOwner(file));
      throw retryError;
    }
  }
  const me: Owner = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    token: randomHex(8),
  };
  const tmp = `${ownerPath(file)}.${me.token}`;
  writeFileSync(tmp, JSON.stringify(me));
  renameSync(tmp, ownerPath(file));
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (readOwner(file)?.token === me.token) removeFile(ownerPath(file));
      try {
        unlock();
      } catch {
        // Already lost or released; nothing left to undo.
      }
    },
  };
}

/** `rmSync(path, { force: true })` for a file, without the recursive remover Node loads for rmSync (at every exit). */
function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
