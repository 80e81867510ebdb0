/**
 * Background processes of one session: servers and watchers started with `bash({ background: true })`. Each
 * keeps its recent output in memory and all of it (up to the cap) in a log file; the `process` tool reads,
 * waits on, feeds and kills them, and `killAll` runs when the session ends.
 */
import type { Operations, ProcessHandle } from "@keel/extensions-api";
import { logPath } from "./log-path.ts";
import { OutputLog } from "./output-log.ts";
import { NON_INTERACTIVE_ENV, type BashSettings } from "./settings.ts";
import { showTail, type ShownOutput } from "./shown-output.ts";

const TAIL_BYTES = 1024 * 1024;

export interface BackgroundProcess {
  readonly id: string;
  readonly command: string;
  readonly pid: number | undefined;
  readonly startedAt: number;
  readonly logPath: string;
  exit?: { code: number | null; signal: string | null };
  killed: boolean;
}

interface Entry extends BackgroundProcess {
  handle: ProcessHandle;
  log: OutputLog;
  /** Bytes of output the model has been shown. */
  readOffset: number;
  exited: Promise<void>;
}

export class BackgroundProcesses {
  private nextId = 1;
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly settings: BashSettings) {}

  /** Starts `command` with stdin kept open. Throws when too many are running. */
  start(command: string, ops: Operations, dataDir: string): BackgroundProcess {
    const running = this.list().filter((p) => !p.exit);
    if (running.length >= this.settings.maxBackground) {
      throw new Error(
        `${running.length} background processes are already running (the limit ` +
          `is ${this.settings.maxBackground}). Stop one with process({ action: "kill", id }) first.`,
      );
    }
    const id = String(this.nextId++);
    const path = logPath(dataDir, "background", id);
    const log = new OutputLog({
      path,
      tailBytes: TAIL_BYTES,
      holdBytes: 0,
      maxFileBytes: this.settings.maxLogBytes,
      eager: true,
    });
    const handle = ops.spawn(command, {
      env: { ...NON_INTERACTIVE_ENV },
      keepStdinOpen: true,
      onData: (chunk) => log.push(chunk),
    });
    const entry: Entry = {
      id,
      command,
      pid: handle.pid,
      startedAt: Date.now(),
      logPath: path,
      killed: false,
      handle,
      log,
      readOffset: 0,
      exited: Promise.resolve(),
    };
    entry.exited = handle.exited.then(
      (exit) => void (entry.exit = exit),
      (error: Error) => void (entry.exit = { code: null, signal: `failed to start: ${error.message}` }),
    );
    this.entries.set(id, entry);
    return entry;
  }

  list(): BackgroundProcess[] {
    return [...this.entries.values()];
  }

  /** The process with this id, or an error that lists the ones there are. */
  get(id: string): BackgroundProcess {
    const entry = this.entries.get(id);
    if (entry) return entry;
    const known = this.list().map((p) => `${p.id} (${status(p)})`);
    throw new Error(
      `There is no background process ` +
        `"${id}". ${known.length > 0 ? `Known: ${known.join(", ")}.` : "None has been started."} ` +
        `Use process({ action: "list" }) to see them.`,
    );
  }

  /** Output since the last read, within the model's budget; marks it read. */
  readNew(id: string): ShownOutput {
    const entry = this.entry(id);
    const total = entry.log.totalBytes;
    const { bytes, skipped } = entry.log.since(entry.readOffset);
    entry.readOffset = total;
    const shown = showTail(bytes, skipped > 0, {
      totalBytes: total,
      totalLines: entry.log.totalLines,
      fullOutputPath: entry.logPath,
    });
    return shown;
  }

  /** Waits until the process exits, `ms` pass, or `signal` aborts. Resolves true when it exited. */
  async wait(id: string, ms: number, signal: AbortSignal): Promise<boolean> {
    const entry = this.entry(id);
    if (entry.exit) return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      onAbort = () => resolve();
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      await Promise.race([entry.exited, stop]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort!);
    }
    return entry.exit !== undefined;
  }

  write(id: string, input: string): void {
    const entry = this.entry(id);
    if (entry.exit) throw new Error(`Background process ${id} has ${status(entry)}; it cannot take input any more.`);
    entry.handle.write(input);
  }

  /** Kills the process and everything it started; its log file is closed. */
  async kill(id: string): Promise<void> {
    const entry = this.entry(id);
    entry.killed = entry.killed || !entry.exit;
    await entry.handle.kill(this.settings.killGraceMs);
    await entry.exited;
    entry.log.finish(true);
  }

  /** Kills every background process: the session is ending. */
  async killAll(): Promise<void> {
    await Promise.all(this.list().map((p) => this.kill(p.id)));
  }

  private entry(id: string): Entry {
    return this.get(id) as Entry;
  }
}

/** "running", "exited with code 0", "killed by SIGTERM". */
export function status(process: BackgroundProcess): string {
  if (!process.exit) return "running";
  if (process.killed) return "killed";
  if (process.exit.code !== null) return `exited with code ${process.exit.code}`;
  return `ended by ${process.exit.signal}`;
}
