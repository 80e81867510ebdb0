/**
 * One command run by the long-lived shell helper (shell-host.ts), as the same `ProcessHandle` a spawn gives:
 * the pid once the helper says the shell started, output as its frames arrive, `exited` on the shell's exit
 * after the same drain a spawn does, and `kill` through the same process-tree code, from keel itself (signals
 * do not go through the helper, so a stuck or dead helper cannot keep a command alive). A kill after the exit
 * reads /proc only when the helper, a child subreaper, did not say that nothing of the command is left
 * (shell-helper-script.ts): the check after every command is then free.
 */
import { constants } from "node:os";
import type { ProcessHandle } from "@keel/extensions-api";
import { DEFAULT_GRACE_MS, DRAIN_IDLE_MS, DRAIN_MAX_MS, killOnAbort, stdinClosedError } from "./spawn.ts";
import { exitedProcess, startTimeOf, taggedOnly, terminate, type ProcessTree } from "./process-tree.ts";

type Exit = { code: number | null; signal: string | null };

/** How long a kill waits for the helper to say the shell started before giving up on the helper. */
const STUCK_MS = 3000;

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name]));

/** `{ code, signal }` from a raw wait status, the way Node reports a child's exit. */
export function exitOf(status: number): Exit {
  const signal = status & 0x7f;
  if (signal === 0) return { code: (status >> 8) & 0xff, signal: null };
  return { code: null, signal: SIGNAL_NAMES.get(signal) ?? `signal ${signal}` };
}

export interface HelperCommandOptions {
  command: string;
  /** The tag its processes carry (see process-tree.ts). */
  tag: string;
  signal?: AbortSignal;
  onData?: (chunk: Uint8Array) => void;
  /** Called once the shell exited or could not start (the working folder's descriptor may close then). */
  settled: () => void;
  /** Called when the command was killed and the helper still did not say it started, or how it ended. */
  stuck: () => void;
}

export class HelperCommand implements ProcessHandle {
  readonly exited: Promise<Exit>;
  private tree: ProcessTree | undefined;
  private leaderGone = false;
  private leftNothing = false;
  private outputEnded = false;
  private exitStatus: Exit | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private drainDeadline = 0;
  private killing: Promise<void> | undefined;
  private failed = false;
  private resolved = false;
  private markStarted!: () => void;
  /** Resolves once the shell started or could not start, so that a kill knows what to kill. */
  private readonly started = new Promise<void>((resolve) => (this.markStarted = resolve));
  private resolveExit!: (exit: Exit) => void;
  private rejectExit!: (error: Error) => void;

  constructor(private readonly options: HelperCommandOptions) {
    this.exited = new Promise<Exit>((resolve, reject) => {
      this.resolveExit = resolve;
      this.rejectExit = reject;
    });
    this.exited.catch(() => {}); // as with a spawn: a caller that never awaits must not crash the host
    killOnAbort(options.signal, () => this.kill(), this.exited);
  }

  get pid(): number | undefined {
    return this.tree?.leader;
  }

  /** True once the helper said, at the shell's exit, that no process of the command was left. */
  get nothingLeft(): boolean {
    return this.leftNothing;
  }

  /** The shell started as `pid` (`since`: its start time in clock ticks, 0 when unknown). */
  onStarted(pid: number, since: number): void {
    // No fork counter: the helper says when a command left something, so a /proc pass is rare, and reading the
    // counter before each command cost ~0.2 ms; a pass without it reads every process, not only young ones.
    this.tree = { leader: pid, tag: this.options.tag, since: since || startTimeOf(pid) };
    this.markStarted();
  }

  onData(chunk: Uint8Array): void {
    this.options.onData?.(chunk);
    if (this.exitStatus && !this.resolved) this.armDrain();
  }

  onOutputEnd(): void {
    this.outputEnded = true;
    if (this.exitStatus) this.finish();
  }

  /** The shell exited with the raw wait status `status`; `left`: some process of it may still run. */
  onExit(status: number, left: boolean): void {
    this.options.settled();
    if (this.failed) return;
    this.leaderGone = true;
    this.leftNothing = !left;
    this.exitStatus = exitOf(status);
    if (this.outputEnded) return this.finish();
    this.drainDeadline = Date.now() + DRAIN_MAX_MS;
    this.armDrain();
  }

  /**
   * The shell never started (`why` says why), or the helper lost it: then its exit status is unknown, so
   * everything it started is stopped and `exited` rejects with `why`.
   */
  onFailed(why: string): void {
    this.markStarted();
    this.options.settled();
    if (this.exitStatus) return this.finish();
    if (this.failed) return;
    this.failed = true;
    // Its leader may have been reaped by someone else, so the group id is not ours any more; the tag still is.
    this.leaderGone = true;
    this.tree ??= taggedOnly(this.options.tag);
    // No exit will be reported, so the kill must not wait for one.
    void this.stop(DEFAULT_GRACE_MS, Promise.resolve()).finally(() => this.rejectExit(new Error(why)));
  }

  write(): void {
    throw stdinClosedError(this.options.command);
  }

  kill(graceMs = DEFAULT_GRACE_MS): Promise<void> {
    // Nothing was left at the exit, and what is gone cannot start anything: there is nothing to look for.
    if (this.leftNothing) return this.exited.then(noop, noop);
    return this.stop(graceMs, this.exited);
  }

  private stop(graceMs: number, exit: Promise<unknown>): Promise<void> {
    // The exit comes from the helper; should it stop reporting, the shell's own end is read from /proc.
    const leaderGone = () => this.leaderGone || (this.tree !== undefined && exitedProcess(this.tree.leader));
    this.killing ??= this.startedOrStuck()
      .then(() => terminate(this.tree, leaderGone, graceMs, exit))
      // The shell can be seen gone (a zombie) before the helper has reaped it and said so.
      .then(() => Promise.race([exit.catch(() => {}), delay(STUCK_MS)]))
      .then(() => {
        if (!this.exitStatus && !this.failed) this.options.stuck();
      })
      .finally(() => (this.killing = undefined));
    return this.killing;
  }

  /** Waits for the start; a helper that does not say within `STUCK_MS` is given up (which fails this). */
  private startedOrStuck(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.options.stuck();
        resolve(this.started);
      }, STUCK_MS);
    });
    return Promise.race([this.started, stuck]).finally(() => clearTimeout(timer));
  }

  private armDrain(): void {
    clearTimeout(this.drainTimer);
    const wait = Math.max(0, Math.min(DRAIN_IDLE_MS, this.drainDeadline - Date.now()));
    this.drainTimer = setTimeout(() => this.finish(), wait);
  }

  private finish(): void {
    clearTimeout(this.drainTimer);
    if (!this.exitStatus) return;
    this.resolved = true;
    this.resolveExit(this.exitStatus);
  }
}

function noop(): void {}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
