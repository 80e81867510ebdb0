/**
 * `Operations` in a container. Files go through the workspace's bind mount on this machine's side, by the
 * confined `local` backend this one wraps, so its guarantees hold unchanged (atomic writes, bytes as they are,
 * symlinks checked after opening); each path is mapped from the container's view first, and one that leads out
 * of the workspace — also through a symlink into one of ops-local's allowed roots — is refused, since the
 * container does not see those. Commands run in the container (exec-process.ts), starting in the confined
 * folder.
 */
import { realpathSync, statSync } from "node:fs";
import { posix } from "node:path";
import type { DirEntry, FileStat, Operations, ProcessHandle, SpawnOptions } from "@keel/extensions-api";
import { PathAccessError } from "@keel/extensions-api";
import { isWithin } from "@keel/extensions-api/paths";
import type { ContainerSession } from "./container.ts";
import { ExecProcess } from "./exec-process.ts";
import type { WorkspaceMap } from "./workspace-map.ts";

export class ContainerOps implements Operations {
  readonly cwd: string;
  /** Commands run in the container, not on this machine: tools must not hand them this machine's binaries. */
  readonly local = false;
  private readonly running = new Set<ExecProcess>();

  constructor(
    readonly session: ContainerSession,
    private readonly inner: Operations,
    private readonly map: WorkspaceMap,
  ) {
    this.cwd = map.container;
  }

  /** The image (or attached container) and where the workspace is in it. */
  get where(): string {
    const { recorded } = this.session;
    return `${"image" in recorded ? `image ${recorded.image}` : `container ${recorded.container}`}, ${recorded.mount}`;
  }

  get resumeWith(): unknown {
    return this.session.recorded;
  }

  /** Resolves once the exec started ahead for the next command is ready (for benchmarks). */
  commandShellReady(): Promise<void> {
    return this.session.commandShellReady();
  }

  which(program: string): Promise<string | undefined> {
    return this.session.which(program);
  }

  resolve(path: string, access: "read" | "write"): Promise<string> {
    return this.run(path, access, async (host) => this.map.toContainer(host), "follow", true);
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.run(path, "read", (host) => this.inner.readFile(host));
  }

  writeFile(path: string, data: string | Uint8Array): Promise<void> {
    return this.run(path, "write", (host) => this.inner.writeFile(host, data));
  }

  stat(path: string): Promise<FileStat | undefined> {
    return this.run(path, "read", (host) => this.inner.stat(host), "entry");
  }

  list(path: string): Promise<DirEntry[]> {
    return this.run(path, "read", (host) => this.inner.list(host));
  }

  mkdir(path: string): Promise<void> {
    return this.run(path, "write", (host) => this.inner.mkdir(host));
  }

  remove(path: string): Promise<void> {
    return this.run(path, "write", (host) => this.inner.remove(host), "entry");
  }

  /**
   * The real path on this machine for `path`, refused unless it is in the workspace. `entry`: only the folder
   * holding it is followed (stat and remove act on a final symlink itself).
   */
  private async checked(path: string, access: "read" | "write", mode: "follow" | "entry" = "follow"): Promise<string> {
    const host = this.map.toHost(path);
    const followed = mode === "entry" && host !== this.map.host ? posix.dirname(host) : host;
    const real = await this.inner.resolve(followed, access);
    if (!isWithin(this.map.host, real))
      throw new PathAccessError(
        path,
        `it leads through a symlink to ${real} on this machine, outside the workspace mounted in the container`,
      );
    return followed === host ? real : posix.join(real, posix.basename(host));
  }

  /**
   * Runs `operation` on the host path of `path` once checked (on the checked real path when `real`), with errors
   * naming the container's paths.
   */
  private async run<T>(
    path: string,
    access: "read" | "write",
    operation: (host: string) => Promise<T>,
    mode: "follow" | "entry" = "follow",
    real = false,
  ): Promise<T> {
    try {
      const checked = await this.checked(path, access, mode);
      return await operation(real ? checked : this.map.toHost(path));
    } catch (error) {
      throw this.restated(error, path);
    }
  }

  private restated(error: unknown, path: string): unknown {
    if (error instanceof PathAccessError) return new PathAccessError(path, this.map.translate(error.reason));
    if (error instanceof Error && this.map.host !== this.map.container)
      error.message = this.map.translate(error.message);
    return error;
  }

  spawn(command: string, options: SpawnOptions = {}): ProcessHandle {
    const handle = new ExecProcess(this.session, command, {
      ...options,
      workingDir: this.workingDir(command, options.cwd ?? "."),
      tag: this.session.nextTag(),
    });
    this.running.add(handle);
    void handle.exited.catch(() => {}).finally(() => this.running.delete(handle));
    return handle;
  }

  /**
   * The container's folder for `cwd`, confined like any path and checked to be a folder, synchronously since
   * `spawn` throws for a missing one (the local backend's word for it).
   */
  private workingDir(command: string, cwd: string): string {
    const host = this.map.toHost(cwd);
    let real: string;
    try {
      real = realpathSync.native(host);
      if (!statSync(real).isDirectory()) throw new Error("not a folder");
    } catch {
      throw new Error(
        `Cannot run ${JSON.stringify(command)}: the working directory ${this.map.translate(host)} does not ` +
          `exist or is not a folder. Create it or run the command elsewhere.`,
      );
    }
    if (!isWithin(this.map.host, real))
      throw new PathAccessError(cwd, `it leads through a symlink to ${real}, outside the workspace`);
    return this.map.toContainer(real);
  }

  /**
   * Ends the session's side: the container keel created is removed (and every process in it), or in an
   * attached one the processes this session started are stopped. A command still running then ends as killed.
   */
  async close(): Promise<void> {
    for (const handle of this.running) handle.stopping();
    await this.session.close();
  }
}
