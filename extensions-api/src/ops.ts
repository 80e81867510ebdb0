/**
 * Operations: the file and process primitives tools use instead of `node:fs` and `child_process`.
 * A backend plugin provides them (the local machine confined to the workspace, an in-memory test double,
 * a sandbox, a remote host); tools call `ctx.ops` and never learn which one is active.
 */

export interface FileStat {
  kind: "file" | "directory" | "symlink" | "other";
  size: number;
  /** Modification time, ms since the epoch. */
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  kind: FileStat["kind"];
}

export interface SpawnOptions {
  /** Working directory; resolved and confined like any path. Defaults to the workspace. */
  cwd?: string;
  /** Added to (and overriding) the backend's base environment. */
  env?: Record<string, string>;
  signal?: AbortSignal;
  /** Called with output as it arrives; stdout and stderr interleaved in arrival order. */
  onData?: (chunk: Uint8Array) => void;
  /** Data to write to stdin; stdin is closed after it (or at once when absent). */
  stdin?: string;
  /** Keep stdin open so `ProcessHandle.write` can feed the process. */
  keepStdinOpen?: boolean;
}

/** A running process started by `Operations.spawn`. */
export interface ProcessHandle {
  readonly pid: number | undefined;
  /** Resolves when the process exits (not when its pipes close). `code` is null when killed by a signal. */
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  /** Writes to stdin when it was kept open. */
  write(data: string): void;
  /** Kills the whole process group: TERM, then KILL after `graceMs`. Resolves once it is gone. */
  kill(graceMs?: number): Promise<void>;
}

/** Why a path was refused. `path` is what the caller asked for. */
export class PathAccessError extends Error {
  readonly code = "EPATHACCESS";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`Path refused: ${JSON.stringify(path)}: ${reason}`);
    this.name = "PathAccessError";
  }
}

/**
 * The workspace-scoped primitives. Every path may be relative (to `cwd`) or absolute; the backend resolves and
 * confines it and throws `PathAccessError` when it may not be used. Errors for missing files keep Node's `code`
 * (`ENOENT`, `EISDIR`, ...).
 */
export interface Operations {
  /** The workspace root. */
  readonly cwd: string;
  /**
   * True when `spawn` runs this machine's programs on this machine's files, at the paths `resolve` returns, so
   * a tool may run a helper binary it ships (ripgrep from node_modules). Absent or false: a tool must use the
   * file methods only (an in-memory double, a container, a remote host).
   */
  readonly local?: boolean;
  /**
   * Where the backend points when that is not this machine's workspace folder (`user@host:22/srv/app`): the
   * session records it beside the backend's name, and UIs may show it.
   */
  readonly where?: string;
  /**
   * Plain JSON the session records with the backend's name; when the session is resumed, `create` gets it back
   * as `resume`, so the backend reaches the same place whatever the settings say by then.
   */
  readonly resumeWith?: unknown;
  /**
   * Where `spawn` finds `program` (a name such as `rg`) on its PATH, or undefined when it is not there: lets a
   * tool use the backend machine's own binary when `local` is not true.
   */
  which?(program: string): Promise<string | undefined>;
  /** Resolves a path to an absolute, confined one. `write` also checks the root is writable. */
  resolve(path: string, access: "read" | "write"): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  /** Writes atomically (temp file + rename), creating parent folders. */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Undefined when nothing exists at the path. Does not follow a final symlink. */
  stat(path: string): Promise<FileStat | undefined>;
  list(path: string): Promise<DirEntry[]>;
  mkdir(path: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Runs `command` through the backend's shell in its own process group. */
  spawn(command: string, options?: SpawnOptions): ProcessHandle;
}

/**
 * A backend a plugin registers with `api.registerOps()`; the host creates one `Operations` per workspace.
 * The active backend is the one named by the `ops` setting, else the first registered.
 */
export interface OperationsBackend {
  name: string;
  description?: string;
  /**
   * Creates the session's operations. `replaces` is set when a mode chose this backend with `runtime.useOps`:
   * the name of the backend the flags and settings would have used (undefined: the first installed), which a
   * backend that adds to another (files through an editor, processes as before) wraps with `api.opsBackend`.
   * `resume` is what this backend's `resumeWith` was when the session being resumed recorded it.
   */
  create(options: { cwd: string; replaces?: string; resume?: unknown }): Operations | Promise<Operations>;
}
