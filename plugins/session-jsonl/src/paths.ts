/**
 * Where sessions live: `$KEEL_HOME/sessions/<encoded cwd>/<created>_<id>.jsonl`, with `<...>.meta.json` (the
 * index entry) beside each file.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, isAbsolute, join, resolve, sep } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

export const sessionsRoot = (keelHome: string) => join(keelHome, "sessions");

/**
 * A readable, collision-free folder name for a working directory: its tail plus a SHA-256 of the whole path.
 * The hash is @noble/hashes' (built into the plugin's entry): every session start names its folder, and
 * node:crypto's first load costs a start ~5 ms.
 */
export function encodeCwd(cwd: string): string {
  const readable =
    cwd
      .replace(/^[/\\]+/, "")
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .slice(-60) || "root";
  return `${readable}-${bytesToHex(sha256(utf8ToBytes(cwd))).slice(0, 8)}`;
}

export const sessionDir = (keelHome: string, cwd: string) => join(sessionsRoot(keelHome), encodeCwd(cwd));

export function sessionFileName(created: Date, id: string): string {
  return `${created.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
}

/** The session id in a file name made by `sessionFileName`. */
export function idFromFileName(file: string): string | undefined {
  return /^[0-9TZ-]+_(.+)\.jsonl$/.exec(basename(file))?.[1];
}

export const metaPathOf = (file: string) => file.replace(/\.jsonl$/, ".meta.json");

/** Absolute paths of the session files in one folder (none when it does not exist). */
export function sessionFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith(".jsonl")).map((n) => join(dir, n));
}

/** Every session folder under the root. */
export function sessionDirs(keelHome: string): string[] {
  try {
    return readdirSync(sessionsRoot(keelHome), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(sessionsRoot(keelHome), d.name));
  } catch {
    return [];
  }
}

/**
 * Finds the file `--session <arg>` means: a path (absolute, or containing a separator, or ending in
 * `.jsonl`), else an id or unique id prefix, searched in this folder's sessions first, then everywhere.
 * Throws an error that says what was tried and what to do.
 */
export function resolveSessionArg(keelHome: string, cwd: string, arg: string): string {
  if (isAbsolute(arg) || arg.includes(sep) || arg.includes("/") || arg.endsWith(".jsonl")) {
    const path = resolve(cwd, arg);
    if (!existsSync(path))
      throw new Error(`--session ${arg}: no such file (${path}); run \`keel sessions\` to list this folder's sessions`);
    return path;
  }
  const here = sessionDir(keelHome, cwd);
  for (const dirs of [[here], sessionDirs(keelHome).filter((d) => d !== here)]) {
    const matches = dirs.flatMap(sessionFiles).filter((f) => idFromFileName(f)?.startsWith(arg));
    const exact = matches.filter((f) => idFromFileName(f) === arg);
    if (exact.length === 1 || matches.length === 1) return (exact[0] ?? matches[0])!;
    if (matches.length > 1)
      throw new Error(
        `--session ${arg}: ${matches.length} sessions match ` +
          `(${matches.map((f) => idFromFileName(f)).join(", ")}); give more of the id`,
      );
  }
  throw new Error(
    `--session ${arg}: no session with that id; run \`keel sessions\` (or \`keel sessions --all\`) to list them`,
  );
}

/** Why `--session <value>` names no session it could resume, or undefined when it does. */
export function sessionArgProblem(keelHome: string, cwd: string, value: unknown): string | undefined {
  if (typeof value !== "string" || value.length === 0) return undefined;
  try {
    resolveSessionArg(keelHome, cwd, value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
