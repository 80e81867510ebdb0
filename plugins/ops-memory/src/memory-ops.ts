/**
 * `Operations` over files kept in memory: a map of absolute paths to files and folders. It exists to prove
 * the seam: the file tools pass the same tests against it as against the real disk. Paths are confined like
 * the local backend's (`..`, absolute paths, NUL bytes, length limits), with the same words; there are no
 * symlinks, so nothing else can lead out. It cannot run processes.
 */
import { posix } from "node:path";
import type { DirEntry, FileStat, Operations, ProcessHandle } from "@keel/extensions-api";
import { PathAccessError } from "@keel/extensions-api";
import { isWithin, pathTextProblem } from "@keel/extensions-api/paths";

type Entry =
  { kind: "file"; data: Uint8Array; mtimeMs: number } | { kind: "directory"; mtimeMs: number; children: Set<string> };

/** Files to start with: workspace-relative path → text or bytes. Parent folders are created. */
export type SeedFiles = Record<string, string | Uint8Array>;

function errnoError(code: string, what: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${what}, '${path}'`), { code, path });
}

export class MemoryOps implements Operations {
  readonly local = false;
  readonly cwd: string;
  private readonly entries = new Map<string, Entry>();

  constructor(cwd: string, files: SeedFiles = {}) {
    this.cwd = posix.resolve(cwd);
    this.makeFolders(this.cwd);
    for (const [path, content] of Object.entries(files)) this.put(posix.resolve(this.cwd, path), content);
  }

  async resolve(path: string, _access: "read" | "write"): Promise<string> {
    return this.confine(path);
  }

  async readFile(path: string): Promise<Uint8Array> {
    const abs = this.confine(path);
    const entry = this.entries.get(abs);
    if (!entry) throw errnoError("ENOENT", "no such file or directory, open", abs);
    if (entry.kind === "directory") throw errnoError("EISDIR", "illegal operation on a directory, read", abs);
    return entry.data.slice();
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const abs = this.confine(path);
    if (this.entries.get(abs)?.kind === "directory")
      throw errnoError("EISDIR", "illegal operation on a directory, open", abs);
    this.put(abs, data);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const entry = this.entries.get(this.confine(path));
    if (!entry) return undefined;
    return { kind: entry.kind, size: entry.kind === "file" ? entry.data.length : 0, mtimeMs: entry.mtimeMs };
  }

  async list(path: string): Promise<DirEntry[]> {
    const abs = this.confine(path);
    const entry = this.entries.get(abs);
    if (!entry) throw errnoError("ENOENT", "no such file or directory, scandir", abs);
    if (entry.kind !== "directory") throw errnoError("ENOTDIR", "not a directory, scandir", abs);
    return [...entry.children].map((name) => ({ name, kind: this.entries.get(posix.join(abs, name))!.kind }));
  }

  async mkdir(path: string): Promise<void> {
    this.makeFolders(this.confine(path));
  }

  async remove(path: string): Promise<void> {
    const abs = this.confine(path);
    if (abs === this.cwd)
      throw new PathAccessError(path, "it is a root folder of the workspace; remove what is inside it instead");
    if (!this.entries.has(abs)) throw errnoError("ENOENT", "no such file or directory, rm", abs);
    for (const key of [...this.entries.keys()]) if (isWithin(abs, key)) this.entries.delete(key);
    this.folder(posix.dirname(abs)).children.delete(posix.basename(abs));
  }

  spawn(command: string): ProcessHandle {
    throw new Error(
      `Cannot run ${JSON.stringify(command)}: the in-memory operations backend has no processes. ` +
        `Select a backend that can (set "ops": "local" in settings.json).`,
    );
  }

  /** The same refusals, in the same words, as the local backend for paths that need no disk to judge. */
  private confine(path: string): string {
    const textProblem = pathTextProblem(path);
    if (textProblem) throw new PathAccessError(path, textProblem);
    const abs = posix.resolve(this.cwd, path);
    const absProblem = pathTextProblem(abs);
    if (absProblem) throw new PathAccessError(path, `resolved against the workspace, ${absProblem}`);
    if (!isWithin(this.cwd, abs))
      throw new PathAccessError(path, `it lies outside the workspace ${this.cwd}; use a path inside the workspace`);
    return abs;
  }

  private put(abs: string, content: string | Uint8Array): void {
    const parent = this.makeFolders(posix.dirname(abs));
    const data = typeof content === "string" ? new TextEncoder().encode(content) : content.slice();
    this.entries.set(abs, { kind: "file", data, mtimeMs: Date.now() });
    parent.children.add(posix.basename(abs));
  }

  /** Creates `abs` and its missing parents; fails when a file stands where a folder should. */
  private makeFolders(abs: string): Entry & { kind: "directory" } {
    const existing = this.entries.get(abs);
    if (existing?.kind === "directory") return existing;
    if (existing) throw errnoError("ENOTDIR", "not a directory, mkdir", abs);
    const folder = { kind: "directory" as const, mtimeMs: Date.now(), children: new Set<string>() };
    if (abs !== this.cwd && abs !== "/") this.makeFolders(posix.dirname(abs)).children.add(posix.basename(abs));
    this.entries.set(abs, folder);
    return folder;
  }

  private folder(abs: string): Entry & { kind: "directory" } {
    const entry = this.entries.get(abs);
    if (entry?.kind !== "directory") throw errnoError("ENOTDIR", "not a directory", abs);
    return entry;
  }
}

/** An in-memory backend rooted at `cwd`, seeded with `files`. */
export function createMemoryOps(cwd = "/workspace", files: SeedFiles = {}): MemoryOps {
  return new MemoryOps(cwd, files);
}
