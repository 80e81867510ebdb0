/**
 * The long-lived shell helper of one backend: a small perl process (shell-helper-script.ts) that forks each
 * command's shell, so that keel forks once per session instead of once per command. Forking copies the
 * parent's page tables, so a spawn from keel costs with keel's resident memory (docs/design/
 * performance.md); a fork from the helper's few megabytes does not.
 *
 * Started on the first command, restarted on the next command after it died; when it dies, the commands it
 * was running fail with why (their processes are stopped by the tag, as after any command). Should it die
 * before it ever said it was ready, twice in a row, the host gives up on it and `available` turns false, so
 * the backend spawns each command itself again.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import type { ProcessHandle } from "@keel/extensions-api";
import { randomHex } from "@keel/extensions-api/random-id";
import { HelperCommand } from "./helper-command.ts";
import { PROCESS_TAG_VARIABLE } from "./process-tree.ts";
import { SHELL_HELPER_SCRIPT } from "./shell-helper-script.ts";
import { SPARE_WRAPPER } from "./shell-helper-spare.ts";
import { findProgram, findShell, WRAPPER } from "./spawn.ts";

export interface HelperRunOptions {
  /** A folder path the helper can enter (not `/proc/self/...`: that would be the helper's own). */
  cwd: string;
  env: Record<string, string>;
  signal?: AbortSignal;
  onData?: (chunk: Uint8Array) => void;
  /** Called once the shell exited or could not start: the folder in `cwd` must stay reachable until then. */
  settled?: () => void;
}

const HEADER_BYTES = 9;
/** The helper reads at most 64 KB at a time; anything larger is not a frame it sent. */
const MAX_FRAME_BYTES = 1 << 20;
const STDERR_KEPT = 2000;
const STARTS_BEFORE_GIVING_UP = 2;
/**
 * At most this long the helper waits for a shell it forked to exec before it goes on (exec_wait in
 * shell-helper-script.ts): only a shell stuck before its exec, on a hung mount, waits that long.
 */
const EXEC_WAIT_SECONDS = 0.2;
/** Spares need /proc, to compare a spare's folder with the one keel checked. */
const SPARES_POSSIBLE = process.platform === "linux";
/**
 * Variables that bash reads before the command (a file to source, options to set) or that the spare's wrapper
 * sets: with one of them the shell's start is not the same ahead of the command, so no spare is made.
 */
const NOT_IN_A_SPARE = ["BASH_ENV", "SHELLOPTS", "BASHOPTS", "REPLY", "SECONDS"];

/** Whether a spare shell for the next command may be made from this one's shell and environment. */
function spareFits(shell: string, env: Record<string, string>): boolean {
  return shell.endsWith("/bash") && !NOT_IN_A_SPARE.some((name) => name in env);
}

/** perl from PATH or its usual place, undefined when there is none. */
export function findPerl(pathVariable = process.env.PATH ?? ""): string | undefined {
  return findProgram("perl", pathVariable, ["/usr/bin/perl"]);
}

export class ShellHost {
  private helper: Helper | undefined;
  private failedStarts = 0;
  private nextId = 1;
  private closed = false;
  private variables: { env: Record<string, string>; text: string } | undefined;
  /** Why the helper is not used, once it is not. */
  unavailable: string | undefined;

  /**
   * `perl`: the interpreter to run the helper with (`findPerl()`); undefined: none, commands must spawn.
   * `onGiveUp` hears why, once, when a helper that kept failing to start is given up. `tuning.spares`: keep the
   * next command's shell started ahead of it (shell-helper-script.ts); false forks each command's when it comes.
   * `tuning.execWait`: how long the helper waits for a shell's exec before going on (seconds; tests use 0).
   * `tuning.idleSpare`: false forks the next spare only once a command's exit is out, never 50 ms into one (tests).
   */
  constructor(
    private readonly perl: string | undefined,
    private readonly onGiveUp: (why: string) => void = () => {},
    private readonly tuning: { spares?: boolean; execWait?: number; idleSpare?: boolean } = {},
  ) {
    if (!perl) this.unavailable = "perl was not found on PATH or at /usr/bin/perl";
  }

  get available(): boolean {
    return this.unavailable === undefined && !this.closed;
  }

  /** Runs `command` in the helper; the caller checked `available`. */
  run(command: string, options: HelperRunOptions): ProcessHandle {
    const shell = findShell(options.env.PATH);
    const variables = this.variablesOf(options.env);
    if (variables === undefined || command.includes("\0") || options.cwd.includes("\0"))
      throw new Error(
        `Cannot run ${JSON.stringify(command)}: the command, its folder or its environment contains a NUL ` +
          `byte, which no program can receive. Remove it.`,
      );
    const helper = (this.helper ??= this.startHelper());
    // The tag the helper's spare was made with, if it made one: a request must name it to run in the spare.
    const tag = helper.spareTag ?? randomHex(12);
    helper.spareTag =
      (this.tuning.spares ?? SPARES_POSSIBLE) && spareFits(shell, options.env) ? randomHex(12) : undefined;
    const spareTag = helper.spareTag === undefined ? "" : `${PROCESS_TAG_VARIABLE}=${helper.spareTag}`;
    const body = `${shell}\0${options.cwd}\0${command}\0${PROCESS_TAG_VARIABLE}=${tag}\0${spareTag}\0${variables}`;
    const id = this.nextId++;
    const handle = new HelperCommand({
      command,
      tag,
      signal: options.signal,
      onData: options.onData,
      settled: once(options.settled ?? (() => {})),
      stuck: () => helper.fail("it did not report the start or the end of a killed command"),
    });
    helper.send(id, handle, body);
    return handle;
  }

  /**
   * `env` as the request's fields (`NAME=value\0` each, the tag left out), undefined when one holds a NUL; kept
   * for the last environment object, which the backend hands over again while nothing in it changed.
   */
  private variablesOf(env: Record<string, string>): string | undefined {
    if (this.variables?.env === env) return this.variables.text;
    let text = "";
    for (const [name, value] of Object.entries(env)) {
      if (name.includes("\0") || value.includes("\0")) return undefined;
      if (name !== PROCESS_TAG_VARIABLE) text += `${name}=${value}\0`;
    }
    this.variables = { env, text };
    return text;
  }

  /** Ends the helper; it kills the process group of every command still running. */
  close(): void {
    this.closed = true;
    this.helper?.stop();
    this.helper = undefined;
  }

  private startHelper(): Helper {
    const waits = { exec: this.tuning.execWait ?? EXEC_WAIT_SECONDS, idleSpare: this.tuning.idleSpare ?? true };
    const helper = new Helper(this.perl!, waits, (readyBefore, why) => {
      if (this.helper === helper) this.helper = undefined;
      this.failedStarts = readyBefore ? 0 : this.failedStarts + 1;
      if (this.failedStarts >= STARTS_BEFORE_GIVING_UP && this.unavailable === undefined) {
        this.unavailable = `the shell helper failed to start ${this.failedStarts} times (${why})`;
        this.onGiveUp(this.unavailable);
      }
    });
    return helper;
  }
}

interface Entry {
  handle: HelperCommand;
  exited: boolean;
  ended: boolean;
}

/** One helper process and the commands it runs. */
class Helper {
  private readonly child: ChildProcess;
  private readonly commands = new Map<number, Entry>();
  private buffer: Buffer = Buffer.alloc(0);
  private ready = false;
  /** The tag of the spare shell the last request asked for, which the next request uses. */
  spareTag: string | undefined;
  private stderr = "";
  private broken: string | undefined;
  private dead = false;

  constructor(
    perl: string,
    waits: { exec: number; idleSpare: boolean },
    onDeath: (wasReady: boolean, why: string) => void,
  ) {
    const args = [WRAPPER, SPARE_WRAPPER, String(waits.exec), waits.idleSpare ? "1" : "0"];
    this.child = spawn(perl, ["-e", SHELL_HELPER_SCRIPT, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // its own session: a Ctrl-C at the terminal is keel's to handle, not the helper's
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    this.child.unref();
    this.child.stdin!.on("error", () => {}); // EPIPE once it died; its exit says why
    this.child.stdout!.on("data", (chunk: Buffer) => this.receive(chunk));
    this.child.stderr!.on("data", (chunk: Buffer) => (this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT)));
    this.setRef(false);
    this.child.once("error", (error) => this.die(`it could not start: ${error.message}`, onDeath));
    this.child.once("exit", (code, signal) =>
      this.die(
        this.broken ?? (signal ? `it was killed by ${signal}` : `it exited with code ${code}`) + this.stderrNote(),
        onDeath,
      ),
    );
  }

  /** Sends request `id`: `body` is its fields, each NUL-terminated (shell-helper-script.ts). */
  send(id: number, handle: HelperCommand, body: string): void {
    this.commands.set(id, { handle, exited: false, ended: false });
    this.setRef(true);
    this.child.stdin!.write(`R ${id} ${Buffer.byteLength(body)}\n${body}`);
  }

  stop(): void {
    this.child.stdin!.end();
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= HEADER_BYTES && !this.broken) {
      const length = this.buffer.readUInt32BE(5);
      if (length > MAX_FRAME_BYTES) return this.fail(`it sent a frame of ${length} bytes`);
      if (this.buffer.length < HEADER_BYTES + length) return;
      const type = String.fromCharCode(this.buffer[0]!);
      const id = this.buffer.readUInt32BE(1);
      const payload = this.buffer.subarray(HEADER_BYTES, HEADER_BYTES + length);
      this.buffer = this.buffer.subarray(HEADER_BYTES + length);
      this.dispatch(type, id, payload);
    }
  }

  private dispatch(type: string, id: number, payload: Buffer): void {
    if (type === "H" && id === 0) return void (this.ready = true);
    const entry = this.commands.get(id);
    if (!entry) return this.fail(`it sent a "${type}" frame for command ${id}, which it is not running`);
    const handle = entry.handle;
    const text = () => payload.toString("utf8");
    switch (type) {
      case "S": {
        const [pid, since] = text().split(" ").map(Number);
        return handle.onStarted(pid!, since ?? 0);
      }
      case "D":
        return handle.onData(payload);
      case "E":
        this.settle(id, entry, "ended");
        return handle.onOutputEnd();
      case "X": {
        this.settle(id, entry, "exited");
        const [status, left] = text().split(" ");
        return handle.onExit(Number(status), left !== "0");
      }
      case "F": // its X follows
        return handle.onFailed(`Could not start the shell: ${text()}.`);
      default:
        return this.fail(`it sent a frame of unknown type "${type}"`);
    }
  }

  /**
   * Output may go on after the shell exited (a background child holds the pipe), so a command is forgotten
   * once both happened; keel is kept alive only while some shell has not exited.
   */
  private settle(id: number, entry: Entry, what: "exited" | "ended"): void {
    entry[what] = true;
    if (entry.exited && entry.ended) this.commands.delete(id);
    if (![...this.commands.values()].some((e) => !e.exited)) this.setRef(false);
  }

  /** A frame that makes no sense: the channel cannot be trusted, so the helper goes and its commands fail. */
  fail(why: string): void {
    this.broken = `its output could not be read (${why})`;
    this.child.kill("SIGKILL");
  }

  private die(why: string, onDeath: (wasReady: boolean, why: string) => void): void {
    if (this.dead) return; // a helper that could not start reports both "error" and "exit"
    this.dead = true;
    const running = [...this.commands.values()].map((entry) => entry.handle);
    this.commands.clear();
    this.setRef(false);
    onDeath(this.ready, why);
    for (const handle of running)
      handle.onFailed(
        `The shell helper (perl, pid ${this.child.pid}) ended while the command ran: ${why}. Every process the ` +
          `command started was stopped; the next command starts a new helper.`,
      );
  }

  private stderrNote(): string {
    const said = this.stderr.trim();
    return said ? `; it said: ${said}` : "";
  }

  /** While commands run, the helper's output keeps keel alive, as a spawned child would; otherwise it must not. */
  private setRef(on: boolean): void {
    const stdout = this.child.stdout as Socket;
    if (on) stdout.ref();
    else stdout.unref();
    (this.child.stdin as unknown as Socket).unref?.();
    (this.child.stderr as Socket).unref();
  }
}

function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (!called) fn();
    called = true;
  };
}
