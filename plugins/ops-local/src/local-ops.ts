/**
 * `Operations` on the local machine, confined to the workspace and the allowed roots. Every method resolves
 * its path through the one `Confinement` first; processes are started by `spawnProcess` (./spawn.ts).
 */
import { promises as fs } from "node:fs";
import type { DirEntry, FileStat, Operations, ProcessHandle, SpawnOptions } from "@keel/extensions-api";
import { PathAccessError } from "@keel/extensions-api";
import { Confinement } from "./confine.ts";
import { readChecked } from "./read-checked.ts";
import { Roots } from "./roots.ts";
import type { AllowedRoot } from "./settings.ts";
import { spawnProcess } from "./spawn.ts";
import { writeChecked } from "./write-checked.ts";

export interface LocalOpsOptions {
  cwd: string;
  allowedRoots?: AllowedRoot[];
  /** The environment processes start from; defaults to this process's. */
  baseEnv?: NodeJS.ProcessEnv;
}

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileStat["kind"] {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "directory";
  return entry.isFile() ? "file" : "other";
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

export class LocalOps implements Operations {
  readonly local = true;
  readonly cwd: string;
  readonly confinement: Confinement;
  private readonly baseEnv: Record<string, string>;

  constructor(options: LocalOpsOptions) {
    const roots = new Roots(options.cwd, options.allowedRoots);
    this.cwd = roots.workspace.path;
    this.confinement = new Confinement(roots);
    this.baseEnv = stringEnv(options.baseEnv ?? process.env);
  }

  /** Allowed roots from settings that do not exist and were left out. */
  get missingRoots(): readonly string[] {
    return this.confinement.roots.missing;
  }

  async resolve(path: string, access: "read" | "write"): Promise<string> {
    return this.confinement.resolve(path, access);
  }

  async readFile(path: string): Promise<Uint8Array> {
    return readChecked(this.confinement, path, this.confinement.resolve(path, "read"));
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    await writeChecked(path, this.confinement.resolve(path, "write"), data);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const entry = this.confinement.resolve(path, "read", "entry");
    try {
      const info = await fs.lstat(entry);
      return { kind: kindOf(info), size: info.size, mtimeMs: info.mtimeMs };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw error;
    }
  }

  async list(path: string): Promise<DirEntry[]> {
    const entries = await fs.readdir(this.confinement.resolve(path, "read"), { withFileTypes: true });
    return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
  }

  async mkdir(path: string): Promise<void> {
    await fs.mkdir(this.confinement.resolve(path, "write"), { recursive: true });
  }

  async remove(path: string): Promise<void> {
    const entry = this.confinement.resolve(path, "write", "entry");
    if (this.confinement.isRoot(entry)) throw new PathAccessError(path, "it is a root folder of the workspace; remove what is inside it instead");
    await fs.rm(entry, { recursive: true });
  }

  spawn(command: string, options: SpawnOptions = {}): ProcessHandle {
    const cwd = this.confinement.resolve(options.cwd ?? ".", "read");
    return spawnProcess(command, {
      cwd,
      env: { ...this.baseEnv, ...options.env },
      signal: options.signal,
      onData: options.onData,
      stdin: options.stdin,
      keepStdinOpen: options.keepStdinOpen,
    });
  }
}

/** A local backend for `cwd`; what the plugin's `create` returns, exported for tests and benchmarks. */
export function createLocalOps(options: LocalOpsOptions): LocalOps {
  return new LocalOps(options);
}
