/**
 * `Operations` that run commands inside bubblewrap and leave files to the wrapped backend (the confined local
 * one): every file method is the wrapped backend's own, and `spawn` hands that backend's `spawn` a command
 * line that `exec`s bwrap, so its process group, output handling and kill-the-whole-tree logic stay the ones
 * that already hold. Until a probe has started a sandbox once, and after it failed, commands are refused with
 * why; nothing ever runs unsandboxed.
 */
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { PathAccessError, type Operations, type ProcessHandle, type SpawnOptions } from "@keel/extensions-api";
import { bwrapArgs, sandboxedCommand, type SandboxLayout } from "./bwrap-args.ts";
import { visibleInSandbox } from "./visible.ts";

export interface SandboxOpsOptions {
  inner: Operations;
  bwrap: string;
  layout: SandboxLayout;
}

/** Output of the probe kept for the error message. */
const PROBE_OUTPUT_LIMIT = 2000;

export class SandboxOps implements Operations {
  readonly cwd: string;
  /** Files live where the wrapped backend says; commands run in a sandbox over this machine's files. */
  readonly local: boolean | undefined;
  private refusal: string | undefined;
  private readonly args: readonly string[];

  constructor(private readonly options: SandboxOpsOptions) {
    this.cwd = options.inner.cwd;
    this.local = options.inner.local;
    this.args = bwrapArgs(options.layout);
  }

  resolve: Operations["resolve"] = (path, access) => this.options.inner.resolve(path, access);
  readFile: Operations["readFile"] = (path) => this.options.inner.readFile(path);
  writeFile: Operations["writeFile"] = (path, data) => this.options.inner.writeFile(path, data);
  stat: Operations["stat"] = (path) => this.options.inner.stat(path);
  list: Operations["list"] = (path) => this.options.inner.list(path);
  mkdir: Operations["mkdir"] = (path) => this.options.inner.mkdir(path);
  remove: Operations["remove"] = (path) => this.options.inner.remove(path);

  /**
   * Starts `true` in the sandbox once. Resolves to undefined when it ran, else to the refusal every later
   * command gets (and that the plugin reports).
   */
  async probe(): Promise<string | undefined> {
    let output = "";
    let result: { code: number | null };
    try {
      const handle = this.options.inner.spawn(sandboxedCommand(this.options.bwrap, this.args, "true"), {
        onData: (chunk) => void (output = (output + Buffer.from(chunk).toString("utf8")).slice(0, PROBE_OUTPUT_LIMIT)),
      });
      result = await handle.exited;
    } catch (error) {
      output = (error as Error).message;
      result = { code: null };
    }
    if (result.code === 0) return (this.refusal = undefined);
    this.refusal =
      `The shell sandbox (plugin sandbox-bwrap) cannot start bubblewrap ` +
      `"${this.options.bwrap}": ${output.trim() || `exit code ${result.code}`}. ` +
      `Commands are refused until it can. Install it (Debian/Ubuntu: apt-get install bubblewrap) or ` +
      `set "sandbox-bwrap.bwrap" to its path; ` +
      `to run commands without a sandbox, choose the unsandboxed backend explicitly ("ops": ` +
      `"local", without --sandbox).`;
    return this.refusal;
  }

  /**
   * Runs `command` in the sandbox, in the working folder asked for. bubblewrap starts a command whose folder it
   * cannot enter in the private home instead, so a folder the sandbox does not show is refused here (a path
   * refusal, like the wrapped backend's for a folder outside), saying what would show it; `--chdir` makes
   * bubblewrap fail rather than move, should the two ever disagree.
   */
  spawn(command: string, options?: SpawnOptions): ProcessHandle {
    if (this.refusal) throw new Error(this.refusal);
    const asked = resolve(this.cwd, options?.cwd ?? ".");
    // A missing folder is the wrapped backend's to report, with its own message.
    const dir = existsSync(asked) ? realpathSync.native(asked) : asked;
    if (existsSync(asked) && !visibleInSandbox(this.options.layout, dir))
      throw new PathAccessError(
        options?.cwd ?? ".",
        `the shell sandbox (plugin sandbox-bwrap) cannot run ${JSON.stringify(command)} in ${dir}: ` +
          `that folder is not inside the sandbox ` +
          `(it shows the workspace, "sandbox-bwrap.writable" and ops-local's allowedRoots, and the ` +
          `host's files outside /tmp and the home folder). ` +
          `Add the folder to "sandbox-bwrap.writable" (or to "ops-local.allowedRoots") in ` +
          `settings.json, or run the command in the workspace.`,
      );
    const args = [...this.args, "--chdir", dir];
    return this.options.inner.spawn(sandboxedCommand(this.options.bwrap, args, command), options);
  }
}
