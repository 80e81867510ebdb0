/**
 * `Operations` on a remote host over SSH, confined to the remote root. A path's text is judged here, with the
 * same words as every backend (`pathTextProblem`, `..` and absolute paths out of the root); where it really
 * leads is judged on the remote side by the helper, which also holds what it checked open for SFTP and for a
 * command's `cd` (./remote-helper.ts, ./sftp-files.ts, ./remote-process.ts).
 */
import { posix } from "node:path";
import {
  PathAccessError,
  type DirEntry,
  type FileStat,
  type Operations,
  type ProcessHandle,
  type SpawnOptions,
} from "@keel/extensions-api";
import { isWithin, MAX_NAME_BYTES, pathTextProblem } from "@keel/extensions-api/paths";
import type { SshPool } from "./pool.ts";
import { HelperError, HelperRefusal } from "./remote-helper.ts";
import { spawnRemote } from "./remote-process.ts";
import { readThrough, writeThrough } from "./sftp-files.ts";

/** The temp file is the target's name plus `.` and ten hex digits, within NAME_MAX (as ops-local). */
const MAX_WRITABLE_NAME_BYTES = MAX_NAME_BYTES - 11;

export class SshOps implements Operations {
  readonly local = false;
  private readonly running = new Set<ProcessHandle>();

  constructor(
    private readonly pool: SshPool,
    /** The remote root's real path, as the helper found it. */
    readonly cwd: string,
    /** Gives the pool back (closed once no backend uses it). */
    private readonly release: () => void,
    /** What the session records, to come back here on resume (./create.ts `Recorded`). */
    readonly resumeWith: { host: string; port: number; user: string; root: string },
  ) {}

  /** Where the backend points: `user@host:port` and the remote root. */
  get where(): string {
    return `${this.pool.where}${this.cwd}`;
  }

  async resolve(path: string, _access: "read" | "write"): Promise<string> {
    return this.ask(path, "check", { path: this.confine(path), mode: "follow" });
  }

  async readFile(path: string): Promise<Uint8Array> {
    const abs = this.confine(path);
    const { helper, sftp } = await this.pool.controlPair();
    const { fd } = await this.ask<{ fd: number }>(path, "openfile", { path: abs });
    try {
      return await readThrough(sftp, `/proc/${helper.pid}/fd/${fd}`, abs);
    } finally {
      helper.post("close", { fd });
    }
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const abs = this.confine(path);
    const nameBytes = Buffer.byteLength(posix.basename(abs));
    if (nameBytes > MAX_WRITABLE_NAME_BYTES)
      throw new PathAccessError(
        path,
        `its name is ${nameBytes} bytes; files are written through a temp file named after them, so ` +
          `names written may be at most ${MAX_WRITABLE_NAME_BYTES} bytes. Use a shorter name`,
      );
    const { helper, sftp } = await this.pool.controlPair();
    const target = await this.ask<{ fd: number; name: string; mode: number | null }>(path, "writeprep", { path: abs });
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    try {
      const folder = `/proc/${helper.pid}/fd/${target.fd}`;
      await writeThrough(sftp, { folder, name: target.name, mode: target.mode ?? undefined }, bytes, abs);
    } finally {
      helper.post("close", { fd: target.fd });
    }
  }

  async stat(path: string): Promise<FileStat | undefined> {
    return (await this.ask<FileStat | null>(path, "stat", { path: this.confine(path) })) ?? undefined;
  }

  async list(path: string): Promise<DirEntry[]> {
    return this.ask(path, "list", { path: this.confine(path) });
  }

  async mkdir(path: string): Promise<void> {
    await this.ask(path, "mkdir", { path: this.confine(path) });
  }

  async remove(path: string): Promise<void> {
    await this.ask(path, "remove", { path: this.confine(path) });
  }

  /** Where the remote `spawn` finds `program` on its PATH (ripgrep, for the search tools). */
  async which(program: string): Promise<string | undefined> {
    return (await this.ask<string | null>(program, "which", { name: program })) ?? undefined;
  }

  spawn(command: string, options: SpawnOptions = {}): ProcessHandle {
    const input = options.cwd ?? ".";
    const abs = this.confine(input);
    const handle = spawnRemote(this.pool, {
      command,
      options,
      openCwd: async () => {
        const { helper } = await this.pool.controlPair();
        try {
          const { fd } = await this.ask<{ fd: number }>(input, "opendir", { path: abs });
          return { fd, helperPid: helper.pid, close: () => helper.post("close", { fd }) };
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
          throw new Error(
            `Cannot run ${JSON.stringify(command)}: the working directory ${abs} does not exist or is not a ` +
              `folder. Create it or run the command elsewhere.`,
          );
        }
      },
    });
    this.running.add(handle);
    handle.exited.then(
      () => this.running.delete(handle),
      () => this.running.delete(handle),
    );
    return handle;
  }

  /** Resolves once the next command's shell, opened ahead, waits for it (a warm call, for benchmarks). */
  async commandShellReady(): Promise<void> {
    await this.pool.shells.warm();
  }

  /** Kills every command still running (and what it left), then closes the connections. */
  async close(): Promise<void> {
    await Promise.all([...this.running].map((handle) => handle.kill()));
    this.release();
  }

  /** The absolute path `input` names, judged by its text; where it really leads is the helper's to judge. */
  private confine(input: string): string {
    const textProblem = pathTextProblem(input);
    if (textProblem) throw new PathAccessError(input, textProblem);
    const abs = posix.resolve(this.cwd, input);
    const absProblem = pathTextProblem(abs);
    if (absProblem) throw new PathAccessError(input, `resolved against the workspace, ${absProblem}`);
    if (!isWithin(this.cwd, abs))
      throw new PathAccessError(input, `it lies outside the workspace ${this.where}; use a path inside the workspace`);
    return abs;
  }

  /** A helper request about `input`, its refusal made a PathAccessError and its OS error a Node-style one. */
  private async ask<T>(input: string, op: string, args: Record<string, unknown>): Promise<T> {
    const { helper } = await this.pool.controlPair();
    try {
      return await helper.request<T>(op, { ...args, root: this.cwd });
    } catch (error) {
      if (error instanceof HelperRefusal) throw new PathAccessError(input, error.message);
      if (error instanceof HelperError) throw Object.assign(new Error(error.message), { code: error.code });
      throw error;
    }
  }
}
