/**
 * One exec kept started ahead of the next command (scripts.ts, SPARE_SCRIPT): creating and starting an exec is
 * most of what a command costs in a container (Podman: conmon, then runc), so the session starts the next one
 * while nothing needs it, and a command takes it and only writes its line. A command that finds none ready gets
 * an exec of its own, as before; a spare whose exec ended (the container stopped) is never handed out.
 */
import type { Exec } from "./exec.ts";

/** Where a spare's output goes once a command has taken it; before that nothing is expected, and it is dropped. */
export interface SpareSink {
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
}

export interface Spare {
  exec: Exec;
  /** Sends the spare's output to `sink` from now on. */
  claim(sink: SpareSink): void;
}

type Start = (sink: SpareSink) => Promise<Exec>;

interface Entry {
  /** Resolves to the spare's exec once started, or undefined when it could not be. */
  started: Promise<Exec | undefined>;
  /** Resolves once its script waits for a line (it said `ready`), or it is gone. */
  waits: Promise<void>;
  sink: SpareSink;
  alive: boolean;
}

export class Spares {
  private waiting: Entry | undefined;
  private closed = false;

  /** `start` starts a spare's exec with its output going to the sink given. */
  constructor(private readonly start: Start) {}

  /** Starts the next spare unless one is waiting or starting. */
  refill(): void {
    if (this.waiting || this.closed) return;
    let waits!: () => void;
    const entry: Entry = {
      started: Promise.resolve(undefined),
      waits: new Promise((resolve) => (waits = resolve)),
      // Until a command takes it, its script says only `ready`.
      sink: { onStdout() {}, onStderr: waits },
      alive: true,
    };
    const gone = () => {
      entry.alive = false;
      waits();
      if (this.waiting === entry) this.waiting = undefined;
    };
    entry.started = this.start({ onStdout: (c) => entry.sink.onStdout(c), onStderr: (c) => entry.sink.onStderr(c) })
      .then((exec) => {
        exec.ended.then(gone, gone);
        if (this.closed) exec.endInput();
        return exec;
      })
      // The engine would not start one; commands start their own execs, and the next refill tries again.
      .catch(() => void gone());
    this.waiting = entry;
  }

  /**
   * The spare for a command, waiting for it when it is still starting (it is then nearer ready than an exec
   * started now would be), or undefined when there is none; the caller refills.
   */
  async take(): Promise<Spare | undefined> {
    const entry = this.waiting;
    if (!entry) return undefined;
    this.waiting = undefined;
    const exec = await entry.started;
    if (!exec || !entry.alive) return undefined;
    return { exec, claim: (sink) => void (entry.sink = sink) };
  }

  /** Resolves once the waiting spare (if any) has started: for benchmarks that model a pause between commands. */
  async ready(): Promise<void> {
    await this.waiting?.waits;
  }

  /** Ends the waiting spare (it exits, unused) and starts no more. */
  close(): void {
    this.closed = true;
    void this.waiting?.started.then((exec) => exec?.endInput());
  }
}
