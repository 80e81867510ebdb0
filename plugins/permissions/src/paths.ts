/**
 * Where a path a tool call names really is: resolved against the workspace, `~` expanded, symbolic links of
 * the part that exists followed (a link inside the workspace to `/etc` is `/etc`), and whether it lies in the
 * workspace, in a build folder, or among the files a change to which must always be asked about.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isWithin } from "@keel/extensions-api/paths";

/** The places a policy decision is relative to. `cwd` is the workspace's real path. */
export interface Places {
  cwd: string;
  home: string;
  keelHome: string;
}

export interface ResolvedPath {
  /** Absolute, with links of its existing part followed. */
  abs: string;
  /** Relative to the workspace with `/` separators, or undefined when outside it. */
  rel: string | undefined;
}

export function placesFor(cwd: string, keelHome: string, home: string = homedir()): Places {
  return { cwd: realOrSelf(resolve(cwd)), home: realOrSelf(resolve(home)), keelHome: realOrSelf(resolve(keelHome)) };
}

export function resolvePath(path: string, places: Places): ResolvedPath {
  const expanded = path === "~" ? places.home : path.startsWith("~/") ? join(places.home, path.slice(2)) : path;
  const abs = realOrSelf(resolve(places.cwd, expanded));
  return { abs, rel: isWithin(places.cwd, abs) ? relative(places.cwd, abs) || "." : undefined };
}

/**
 * Shell start-up files and other files that run code or hold credentials for every later session: a change to
 * them is asked about in every mode but `full`, whatever the rules allow.
 */
const SHELL_RC = new Set([
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".kshrc",
  ".cshrc",
  ".tcshrc",
  ".inputrc",
]);

/** Why a change to this file is always asked about, or undefined. */
export function protectedReason(path: ResolvedPath, places: Places): string | undefined {
  const parts = path.abs.split("/");
  if (parts.includes(".git")) return "it is inside a .git folder (hooks there run code)";
  if (SHELL_RC.has(basename(path.abs))) return "it is a shell start-up file";
  if (isWithin(join(places.home, ".ssh"), path.abs)) return "it is in ~/.ssh";
  if (isWithin(join(places.home, ".config", "fish"), path.abs) || isWithin(join(places.home, ".gitconfig"), path.abs))
    return "it configures the shell or git for every session";
  if (isWithin(places.keelHome, path.abs)) return "it is keel's own settings and plugins folder";
  if (path.rel !== undefined && (path.rel === ".keel" || path.rel.startsWith(".keel/")))
    return "it is the project's keel configuration";
  return undefined;
}

/** Folders a build makes and may remove again: deleting in them can be undone by building. */
const BUILD_FOLDERS = new Set([
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  "node_modules",
  ".cache",
  ".next",
  ".turbo",
  ".nuxt",
  ".parcel-cache",
  "__pycache__",
  ".pytest_cache",
  "tmp",
]);

/** True when `path` is a build folder of the workspace or lies inside one. */
export function inBuildFolder(path: ResolvedPath): boolean {
  if (path.rel === undefined || path.rel === ".") return false;
  return BUILD_FOLDERS.has(path.rel.split("/")[0] ?? "");
}

/** Output redirections the shell sends nowhere or to the terminal. */
export function isDevice(path: string): boolean {
  return (
    path === "/dev/null" ||
    path === "/dev/stdout" ||
    path === "/dev/stderr" ||
    path === "/dev/tty" ||
    path.startsWith("/dev/fd/")
  );
}

/** The rule pattern for a path's folder, relative when inside the workspace: `src/**` or `/tmp/out/**`. */
export function folderPattern(path: ResolvedPath): string {
  if (path.rel !== undefined) {
    const folder = dirname(path.rel);
    return folder === "." ? path.rel : `${folder}/**`;
  }
  return `${dirname(path.abs)}/**`;
}

/** The real path of the longest existing prefix of `abs`, with the rest appended (a new file's folder may exist). */
function realOrSelf(abs: string): string {
  let head = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      // One realpath(3) call instead of an lstat per path component (about half the time, on every path call).
      return join(realpathSync.native(head), ...rest.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head || !isAbsolute(parent)) return abs;
      rest.push(basename(head));
      head = parent;
    }
  }
}
