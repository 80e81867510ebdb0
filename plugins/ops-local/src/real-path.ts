/**
 * Where a path really leads, even when its end does not exist yet: the real path of the nearest existing
 * ancestor, with the missing names appended. A dangling symlink is followed to where it points, because a
 * write through it would create its target.
 *
 * Synchronous on purpose: `spawn` must confine its working folder before it returns, and one resolver for
 * every operation keeps a single path check.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** Linux gives up after 40 symlinks; so do we. */
const MAX_SYMLINK_HOPS = 40;

export class SymlinkLoopError extends Error {
  constructor(readonly at: string) {
    super(`too many levels of symlinks at ${at}`);
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The real path `abs` (absolute, normalised) leads to. Throws `SymlinkLoopError` on a cycle. */
export function realPathOf(abs: string, hops = 0): string {
  if (hops > MAX_SYMLINK_HOPS) throw new SymlinkLoopError(abs);
  const missing: string[] = [];
  let existing = abs;
  let isLink = false;
  for (;;) {
    try {
      isLink = lstatSync(existing).isSymbolicLink();
      break;
    } catch (error) {
      if (!isMissing(error)) throw error;
      const parent = dirname(existing);
      if (parent === existing) break;
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
  let real: string;
  try {
    real = realpathSync.native(existing);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new SymlinkLoopError(existing);
    if (!isLink || !isMissing(error)) throw error;
    // A dangling symlink (or a chain ending in one): follow it by hand to the place it would create.
    const target = resolve(realpathSync.native(dirname(existing)), readlinkSync(existing));
    return realPathOf(join(target, ...missing), hops + 1);
  }
  return missing.length === 0 ? real : join(real, ...missing);
}
