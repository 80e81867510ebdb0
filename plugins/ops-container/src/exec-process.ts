/**
 * A command running in the container as a `ProcessHandle`. Its exec (the session's shell, or one of its own) runs the
 * run script (scripts.ts), which starts the command's shell tagged and in its own session, reports its pid and exit on
 * stderr and marks the end of its output on stdout. `exited` resolves once the report and the mark are in, not when the
 * stream ends (an engine may keep it open while a background child holds it). `kill` runs the kill script in a second
 * exec, since the API cannot signal an exec; it is skipped when the command has exited leaving nothing behind.
 */
import { constants } from "node:os";
import type { ProcessHandle, SpawnOptions } from "@keel/extensions-api";
import { ControlLines, type ControlEvent } from "./control-lines.ts";
import { EndMark } from "./end-mark.ts";
import { engineMessage, type Exec } from "./exec.ts";
import { KILL_SCRIPT, tagPattern } from "./scripts.ts";
import type { ContainerTarget } from "./target.ts";

/** TERM, then KILL after this long, unless the caller says otherwise (as the local backend). */
export const DEFAULT_GRACE_MS = 1000;
/** After the exit report, output still coming is read until quiet this long, at most `DRAIN_MAX_MS`. */
const DRAIN_IDLE_MS = 20;
const DRAIN_MAX_MS = 200;

export interface ExecProcessOptions extends SpawnOptions {
  /** The folder in the container the command starts in, already confined. */
  workingDir: string;
  tag: string;
}

type Exit = { code: number | null; signal: string | null };

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function signalName(number: number): string | null {
  const entry = Object.entries(constants.signals).find(([, n]) => n === number);
  return entry ? entry[0] : null;
}

export class ExecProcess implements ProcessHandle {
  readonly exited: Promise<Exit>;
  private commandPid: number | undefined;
  private exec: Exec | undefined;
  private readonly queued: (string | Uint8Array)[] = [];
  private inputEnded = false;
  private report: { status: number; left: number } | undefined;
  private signalled = false;
  private killing: Promise<void> | undefined;
  private lastOutput = 0;
  private readonly started: Promise<void>;
  private startedResolve!: () => void;

  constructor(
    private readonly target: ContainerTarget,
    command: string,
    private readonly options: ExecProcessOptions,
  ) {
    this.started = new Promise((resolve) => (this.startedResolve = resolve));
    this.exited = this.run(command);
    // A rejection is the caller's to see through `exited`; kill paths must not leave it unhandled.
    this.exited.catch(() => {}).finally(this.startedResolve);
    const signal = options.signal;
    if (signal?.aborted) void this.kill();
    else if (signal) {
      const onAbort = () => void this.kill();
      signal.addEventListener("abort", onAbort, { once: true });
      void this.exited.catch(() => {}).finally(() => signal.removeEventListener("abort", onAbort));
    }
  }

  /** The command's shell's pid inside the container, once it started. */
  get pid(): number | undefined {
    return this.commandPid;
  }

  write(data: string): void {
    if (this.exec) this.exec.write(data);
    else this.queued.push(data);
  }

  private async run(command: string): Promise<Exit> {
    const { options, target } = this;
    const fed = options.stdin !== undefined || options.keepStdinOpen === true;
    const lines = new ControlLines((event) => this.onControl(event));
    const mark = new EndMark(
      options.tag,
      (chunk) => {
        this.lastOutput = Date.now();
        options.onData?.(chunk);
      },
      () => this.onEnd(),
    );
    this.mark = mark;
    try {
      this.exec = await target.run({
        tag: options.tag,
        command,
        workingDir: options.workingDir,
        env: options.env ?? {},
        fed,
        onStdout: (chunk) => mark.push(chunk),
        onStderr: (chunk) => lines.push(chunk),
      });
    } catch (error) {
      throw new Error(
        `The container ${target.name} could not run the command: ${engineMessage(error)} (the backend runs ` +
          `commands through /bin/sh, which the image must have).`,
      );
    }
    for (const data of this.queued.splice(0)) this.exec.write(data);
    if (options.stdin !== undefined) this.exec.write(options.stdin);
    if (options.stdin !== undefined && options.keepStdinOpen !== true) this.endInput();
    try {
      await this.untilDone(this.exec);
    } catch (error) {
      throw new Error(`The connection to the container engine broke while a command ran: ${engineMessage(error)}`);
    } finally {
      lines.flush();
      mark.flush();
      // The session's shell is kept for the next command when this one ended by itself leaving nothing behind.
      this.exec.close(!this.signalled && this.report?.left === 0 && mark.seen);
    }
    const report = this.report;
    if (report) {
      // The shell's status says 128+N for a shell killed by signal N; only when keel sent signals is that
      // what happened, rather than a command that chose such an exit code.
      if (this.signalled && report.status > 128) return { code: null, signal: signalName(report.status - 128) };
      return { code: report.status, signal: null };
    }
    if (this.signalled) return { code: null, signal: "SIGKILL" };
    throw new Error(
      `The command's exec in the container ${target.name} ended without an exit status (the container ` +
        `stopped, or the engine ended the exec); its processes may have been stopped with it.`,
    );
  }

  /**
   * Until the output ends, or both the exit report and the end mark are in; with the report alone (the mark
   * lost, which should not happen), until the output has been quiet for `DRAIN_IDLE_MS` (at most `DRAIN_MAX_MS`),
   * since a background child may hold the stream open.
   */
  private async untilDone(exec: Exec): Promise<void> {
    let ended = false;
    const end = exec.ended.finally(() => (ended = true));
    const done = new Promise<void>((resolve) => (this.onEnd = () => this.report && this.mark?.seen && resolve()));
    this.onEnd();
    await Promise.race([end, done]);
    if (this.report && this.mark?.seen) return;
    const deadline = Date.now() + DRAIN_MAX_MS;
    while (!ended && Date.now() < deadline && Date.now() - this.lastOutput < DRAIN_IDLE_MS) {
      await Promise.race([end.catch(() => {}), delay(DRAIN_IDLE_MS)]);
    }
  }

  /** Called as the exit report or the end mark comes in. */
  private onEnd: () => void = () => {};
  private mark: EndMark | undefined;

  private onControl(event: ControlEvent): void {
    if (event.kind === "start") {
      this.commandPid = event.pid;
      this.startedResolve();
    } else if (event.kind === "exit") {
      this.report = { status: event.status, left: event.left };
      // Output written before the exit may still be on its way through the other stream.
      this.lastOutput = Date.now();
      this.onEnd();
    } else if (event.kind === "other") {
      this.lastOutput = Date.now();
      this.options.onData?.(event.text);
    }
  }

  private endInput(): void {
    if (this.inputEnded) return;
    this.inputEnded = true;
    this.exec?.endInput();
  }

  /** The container is going away with this command in it: its end will be a kill, not a lost command. */
  stopping(): void {
    this.signalled = true;
  }

  /** TERM to the command's processes, KILL after `graceMs`; resolves once they are gone. */
  kill(graceMs = DEFAULT_GRACE_MS): Promise<void> {
    this.killing ??= this.stop(graceMs);
    return this.killing;
  }

  private async stop(graceMs: number): Promise<void> {
    // Until the command has started, a kill would find nothing and the command would then run on.
    await this.started;
    if (this.report && this.report.left === 0) return;
    this.signalled = true;
    const sid = this.report ? "" : String(this.commandPid ?? "");
    try {
      await this.target.script(KILL_SCRIPT, [tagPattern(this.options.tag), sid, String(Math.max(0, graceMs))]);
    } catch {
      // The engine or container is gone, and the processes with it; `exited` says what happened.
    }
    await this.exited.catch(() => {});
  }
}
