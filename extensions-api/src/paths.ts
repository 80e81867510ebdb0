/**
 * Path-text limits every operations backend applies the same way (`@keel/extensions-api/paths`): helpers for
 * backend authors, not part of the versioned contract.
 */
/** The longest path, in UTF-8 bytes, a backend accepts (Linux PATH_MAX, less its terminating NUL). */
export const MAX_PATH_BYTES = 4095;
/** The longest single name in a path, in UTF-8 bytes (Linux NAME_MAX). */
export const MAX_NAME_BYTES = 255;

/**
 * Why the text of a path cannot name a file on any backend (empty, a NUL byte, too long), or undefined when it
 * can. Backends call it before resolving, so every backend refuses the same paths with the same words.
 */
export function pathTextProblem(path: string): string | undefined {
  if (path.length === 0) return 'the path is empty; give a file or folder name, or "." for the workspace';
  if (path.includes("\0")) return "it contains a NUL byte, which no file name can hold";
  const bytes = new TextEncoder().encode(path).length;
  if (bytes > MAX_PATH_BYTES) return `it is ${bytes} bytes long; paths may be at most ${MAX_PATH_BYTES} bytes`;
  for (const name of path.split("/")) {
    const size = new TextEncoder().encode(name).length;
    if (size > MAX_NAME_BYTES)
      return `it has a name of ${size} bytes; each name in a path may be at most ${MAX_NAME_BYTES} bytes`;
  }
  return undefined;
}

/** True when absolute, normalised `path` is `root` or lies under it. Both use `/` separators. */
export function isWithin(root: string, path: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith("/") ? root : `${root}/`);
}
