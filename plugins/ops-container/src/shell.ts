/**
 * The session's shell: one exec in the container running the shell script (scripts.ts, SHELL_SCRIPT), started
 * ahead and kept, which runs the commands it is handed one line each, one at a time. Creating and starting an
 * exec is most of what a command costs in a container (Podman: conmon, then runc, and a conmon left waiting per
 * exec), so a command that needs no stdin of its own takes the shell when it is free (waiting for it while it
 * starts); the others (fed ones, those that come while it is busy) get an exec of their own. A command's output
 * ends with the end mark, so the next command's starts clean; a shell whose command left processes behind (they
 * may still write to it), was killed, or whose exec ended is let go and a new one started.
 */
import type { Exec } from "./exec.ts";

/** Where the shell's output goes: the command that has it, else nowhere. */
export interface ShellSink {
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
}

export interface TakenShell {
  /** The shell as the command's exec: `close(reusable)` hands it back, or lets it go unless `reusable`. */
  exec: Exec;
  /** Sends the shell's output to `sink` until the command hands the shell back. */
  claim(sink: ShellSink): void;
  /** Hands the shell its command's line. */
  send(line: string): void;
}

type Start = (sink: ShellSink) => Promise<Exec>;

interface Entry {
  /** Resolves to the shell's exec once started, or undefined when it could not be. */
  started: Promise<Exec | undefined>;
  /** Resolves once the script waits for its first line (it said `ready`), or it is gone. */
  waits: Promise<void>;
  sink: ShellSink;
  alive: boolean;
  busy: boolean;
}

const NOWHERE: ShellSink = { onStdout() {}, onStderr() {} };

export class SessionShell {
  private entry: Entry | undefined;
  private closed = false;

  /** `start` starts the shell's exec with its output going to the sink given. */
  constructor(private readonly start: Start) {}

  /** Starts a shell unless there is one (starting, free or busy). */
  refill(): void {
    if (this.entry || this.closed) return;
    let waits!: () => void;
    const entry: Entry = {
      started: Promise.resolve(undefined),
      waits: new Promise((resolve) => (waits = resolve)),
      // Until a command takes it, its script says only `ready`.
      sink: { onStdout() {}, onStderr: waits },
      alive: true,
      busy: false,
    };
    const gone = () => {
      entry.alive = false;
      waits();
      if (this.entry === entry) this.entry = undefined;
    };
    entry.started = this.start({ onStdout: (c) => entry.sink.onStdout(c), onStderr: (c) => entry.sink.onStderr(c) })
      .then((exec) => {
        exec.ended.then(gone, gone);
        if (this.closed) exec.endInput();
        return exec;
      })
      // The engine would not start it; commands start their own execs, and the next refill tries again.
      .catch(() => void gone());
    this.entry = entry;
  }

  /** The shell for a command, when it is free (waiting for it while it starts); undefined when busy or gone. */
  async take(): Promise<TakenShell | undefined> {
    const entry = this.entry;
    if (!entry || entry.busy) return undefined;
    entry.busy = true;
    const exec = await entry.started;
    if (!exec || !entry.alive) return undefined;
    const handBack = (reusable: boolean) => {
      entry.sink = NOWHERE;
      entry.busy = false;
      if (reusable && entry.alive && !this.closed) return;
      exec.endInput();
      if (this.entry === entry) this.entry = undefined;
      this.refill();
    };
    let handedBack = false;
    const asCommand: Exec = {
      ended: exec.ended,
      // Its stdin carries the lines; the command's own is /dev/null.
      write() {},
      endInput() {},
      close: (reusable = false) => {
        if (handedBack) return;
        handedBack = true;
        handBack(reusable);
      },
    };
    return { exec: asCommand, claim: (sink) => void (entry.sink = sink), send: (line) => exec.write(line) };
  }

  /** Resolves once a started shell waits for a line: for benchmarks that model a pause between commands. */
  async ready(): Promise<void> {
    await this.entry?.waits;
  }

  /** Ends the shell (it exits once its command, if any, is done) and starts no more. */
  close(): void {
    this.closed = true;
    void this.entry?.started.then((exec) => exec?.endInput());
  }
}
