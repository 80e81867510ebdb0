/**
 * `Operations` on the local machine, confined to the workspace and the allowed roots. Every method resolves
 * its path through the one `Confinement` first, then works through a descriptor it checked after opening
 * (./checked-dir.ts, ./read-checked.ts), so a folder swapped for a symlink between the check and the use
 * cannot lead it outside; processes are started by `spawnProcess` (./spawn.ts) in a checked folder.
 */
import { lstatSync, promises as fs, type Stats } from "node:fs";
import { basename, dirname } from "node:path";
import type { DirEntry, FileStat, Operations, ProcessHandle, SpawnOptions } from "@keel/extensions-api";
import { PathAccessError } from "@keel/extensions-api";
import { CheckedDir, errorCode, inCheckedDir } from "./checked-dir.ts";
import { Confinement } from "./confine.ts";
import { readChecked } from "./read-checked.ts";
import { removeIn } from "./remove-checked.ts";
import { findPerl, ShellHost } from "./shell-host.ts";
import { Roots } from "./roots.ts";
import type { AllowedRoot } from "./settings.ts";
import { missingCwdError, spawnProcess } from "./spawn.ts";
import { writeChecked } from "./write-checked.ts";

export interface LocalOpsOptions {
  cwd: string;
  allowedRoots?: AllowedRoot[];
  /** The environment processes start from; defaults to this process's. */
  baseEnv?: NodeJS.ProcessEnv;
  /**
   * Run commands through one long-lived helper process (shell-host.ts) rather than a spawn from keel each;
   * the default. Commands with stdin to feed still spawn.
   */
  longLivedShell?: boolean;
  /** Told why, once, when the long-lived shell kept failing to start and commands spawn from keel again. */
  onShellGivenUp?: (why: string) => void;
}

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileStat["kind"] {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isDirectory()) return "directory";
  return entry.isFile() ? "file" : "other";
}

function statOf(info: Stats): FileStat {
  return { kind: kindOf(info), size: info.size, mtimeMs: info.mtimeMs };
}

/** Whether `a` and `b` hold the same variables (both undefined counts). */
function sameVariables(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => a[name] === b[name]);
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
  private readonly shell: ShellHost | undefined;
  /** The last command's environment, reused while commands ask for the same variables (most ask for none). */
  private lastEnv: { asked: Record<string, string> | undefined; env: Record<string, string> } | undefined;

  constructor(options: LocalOpsOptions) {
    const roots = new Roots(options.cwd, options.allowedRoots);
    this.cwd = roots.workspace.path;
    this.confinement = new Confinement(roots);
    this.baseEnv = stringEnv(options.baseEnv ?? process.env);
    if (options.longLivedShell !== false) this.shell = new ShellHost(findPerl(), options.onShellGivenUp);
  }

  /** Why commands spawn from keel although the long-lived shell was asked for; undefined when it is used. */
  get shellUnavailable(): string | undefined {
    return this.shell?.unavailable;
  }

  /** Ends the long-lived shell, killing what it still runs. Later commands spawn from keel. */
  close(): void {
    this.shell?.close();
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
    await writeChecked(this.confinement, path, this.confinement.resolve(path, "write"), data);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const entry = this.confinement.resolve(path, "read", "entry");
    try {
      if (this.confinement.isRoot(entry)) return statOf(lstatSync(entry));
      return await inCheckedDir(this.confinement, path, dirname(entry), "read", async (dir) =>
        statOf(await fs.lstat(dir.path(basename(entry)))),
      );
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw error;
    }
  }

  async list(path: string): Promise<DirEntry[]> {
    return inCheckedDir(this.confinement, path, this.confinement.resolve(path, "read"), "read", async (dir) => {
      const entries = await fs.readdir(dir.path(), { withFileTypes: true });
      return entries.map((entry) => ({ name: entry.name, kind: kindOf(entry) }));
    });
  }

  async mkdir(path: string): Promise<void> {
    CheckedDir.create(this.confinement, path, this.confinement.resolve(path, "write")).close();
  }

  async remove(path: string): Promise<void> {
    const entry = this.confinement.resolve(path, "write", "entry");
    if (this.confinement.isRoot(entry))
      throw new PathAccessError(path, "it is a root folder of the workspace; remove what is inside it instead");
    await inCheckedDir(this.confinement, path, dirname(entry), "write", (dir) => removeIn(dir, basename(entry), path));
  }

  /** The base environment with `asked` over it: the same (frozen) object while the same variables are asked for. */
  private envFor(asked: Record<string, string> | undefined): Record<string, string> {
    if (this.lastEnv && sameVariables(this.lastEnv.asked, asked)) return this.lastEnv.env;
    const env = Object.freeze({ ...this.baseEnv, ...asked });
    this.lastEnv = { asked: asked && { ...asked }, env };
    return env;
  }

  spawn(command: string, options: SpawnOptions = {}): ProcessHandle {
    const real = this.confinement.resolve(options.cwd ?? ".", "read");
    let dir: CheckedDir;
    try {
      dir = CheckedDir.open(this.confinement, options.cwd ?? ".", real, "read");
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") throw missingCwdError(command, real);
      throw error;
    }
    const env = this.envFor(options.env);
    const fed = options.stdin !== undefined || options.keepStdinOpen === true;
    if (this.shell?.available && !fed) {
      // The helper's shell changes into the folder through this descriptor, so it stays open until then.
      try {
        return this.shell.run(command, {
          cwd: dir.pathForOthers(),
          env,
          signal: options.signal,
          onData: options.onData,
          settled: () => dir.close(),
        });
      } catch (error) {
        dir.close();
        throw error;
      }
    }
    try {
      // The child changes into the folder through the descriptor before it starts, so no swap of the path
      // since the check can move it elsewhere; once spawned it no longer needs the descriptor.
      return spawnProcess(command, {
        cwd: dir.path(),
        env,
        signal: options.signal,
        onData: options.onData,
        stdin: options.stdin,
        keepStdinOpen: options.keepStdinOpen,
      });
    } finally {
      dir.close();
    }
  }
}

/** A local backend for `cwd`; what the plugin's `create` returns, exported for tests and benchmarks. */
export function createLocalOps(options: LocalOpsOptions): LocalOps {
  return new LocalOps(options);
}
