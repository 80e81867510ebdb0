/**
 * A folder opened once and checked by its descriptor, which every later step goes through. Checking a path
 * and then using it leaves a gap: a folder swapped for a symlink to outside in between (an attacker racing a
 * tool) is followed by the use. Node has no `openat`, but on Linux `/proc/self/fd/N/<name>` reaches `<name>`
 * inside the very folder descriptor N holds, whatever was renamed or swapped on the path since; listing,
 * creating, renaming and removing through it stay in the checked folder. Without /proc (macOS) the checked
 * real path is used, which narrows the gap to the check itself but does not close it.
 */
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { PathAccessError } from "@keel/extensions-api";
import type { Access, Confinement } from "./confine.ts";

const PROC_FD = process.platform === "linux" && existsSync("/proc/self/fd") ? "/proc/self/fd" : undefined;
/** O_NOFOLLOW: a final name swapped for a symlink fails to open (ELOOP) instead of being followed. */
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The real path behind an open descriptor, where the platform tells (Linux), else undefined. */
export function pathOfDescriptor(fd: number): string | undefined {
  if (!PROC_FD) return undefined;
  try {
    return readlinkSync(`${PROC_FD}/${fd}`);
  } catch {
    return undefined;
  }
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function openFolder(path: string, input: string): number {
  try {
    return openSync(path, DIR_FLAGS);
  } catch (error) {
    // Linux says ENOTDIR (or ELOOP) for a symlink opened with O_DIRECTORY|O_NOFOLLOW, as for a file.
    const code = errorCode(error);
    if ((code === "ENOTDIR" || code === "ELOOP") && isSymlink(path)) {
      throw new PathAccessError(
        input,
        "a folder on its path became a symlink after it was checked; refusing to follow it",
      );
    }
    throw error;
  }
}

export class CheckedDir {
  private constructor(
    readonly fd: number,
    /** Where the folder was when it was opened. */
    readonly real: string,
  ) {}

  /**
   * Opens the folder at `real` (a path `Confinement.resolve` returned for `input`) and checks, by the
   * descriptor, that what was opened is inside a root (writable for `write`). Close it when done.
   */
  static open(confinement: Confinement, input: string, real: string, access: Access): CheckedDir {
    const fd = openFolder(real, input);
    try {
      const opened = pathOfDescriptor(fd);
      if (opened !== undefined) confinement.checkOpened(input, opened, access);
      return new CheckedDir(fd, opened ?? real);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Like `open`, making each missing folder inside the one above it, through that one's descriptor. */
  static create(confinement: Confinement, input: string, real: string): CheckedDir {
    try {
      return CheckedDir.open(confinement, input, real, "write");
    } catch (error) {
      if (errorCode(error) !== "ENOENT" || dirname(real) === real) throw error;
    }
    const parent = CheckedDir.create(confinement, input, dirname(real));
    try {
      return parent.child(basename(real), input, true);
    } finally {
      parent.close();
    }
  }

  /**
   * The folder as another process of this user reaches it through the descriptor, while this stays open
   * (a shell the long-lived helper starts changes into it so).
   */
  pathForOthers(): string {
    return PROC_FD ? `/proc/${process.pid}/fd/${this.fd}` : this.real;
  }

  /** `name` inside this folder (the folder itself without one), as a path that goes through the descriptor. */
  path(name?: string): string {
    const base = PROC_FD ? `${PROC_FD}/${this.fd}` : this.real;
    return name === undefined ? base : `${base}/${name}`;
  }

  /**
   * The folder `name` inside this one (made first with `create`), opened without following a symlink. It needs
   * no check of its own: a real folder inside a checked one is inside it.
   */
  child(name: string, input: string, create = false): CheckedDir {
    if (create) {
      try {
        mkdirSync(this.path(name));
      } catch (error) {
        if (errorCode(error) !== "EEXIST") throw error;
      }
    }
    return new CheckedDir(openFolder(this.path(name), input), join(this.real, name));
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Runs `task` with the checked folder `real` open, closing it after. */
export async function inCheckedDir<T>(
  confinement: Confinement,
  input: string,
  real: string,
  access: Access,
  task: (dir: CheckedDir) => Promise<T>,
): Promise<T> {
  const dir = CheckedDir.open(confinement, input, real, access);
  try {
    return await task(dir);
  } finally {
    dir.close();
  }
}
