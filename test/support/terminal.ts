/**
 * The real `keel` binary in a real terminal: a pseudo-terminal (@lydell/node-pty) whose output feeds a headless
 * xterm.js, so tests read the screen as a person sees it, type keys, and wait for what the screen shows — never
 * for a fixed time. The terminal's own answers (device attributes, cursor reports) go back to the program, as a
 * real terminal's would.
 */
import { spawn, type IPty } from "@lydell/node-pty";
import xterm from "@xterm/headless";
import { KEEL_BIN, type KeelEnv } from "./keel-cli.ts";

/** Keys by name, as a terminal sends them. */
export const KEYS = {
  enter: "\r",
  escape: "\x1b",
  "alt+enter": "\x1b\r",
  tab: "\t",
  up: "\x1b[A",
  down: "\x1b[B",
  backspace: "\x7f",
  "ctrl+c": "\x03",
  "ctrl+d": "\x04",
  "ctrl+o": "\x0f",
  "ctrl+t": "\x14",
} as const;

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";

export class TerminalSession {
  private readonly term: InstanceType<typeof xterm.Terminal>;
  private readonly pty: IPty;
  private readonly waiters = new Set<() => void>();
  /** Bytes the program wrote. */
  written = 0;
  private inFrame = false;
  private tail = "";
  readonly exited: Promise<number>;

  constructor(
    args: string[],
    env: KeelEnv,
    options: { cols?: number; rows?: number; extraEnv?: Record<string, string> } = {},
  ) {
    const cols = options.cols ?? 100;
    const rows = options.rows ?? 30;
    this.term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000 });
    this.pty = spawn(process.execPath, [KEEL_BIN, ...args], {
      name: "xterm-256color",
      cols,
      rows,
      cwd: env.cwd,
      env: { ...process.env, KEEL_HOME: env.home, TERM: "xterm-256color", ...options.extraEnv } as Record<
        string,
        string
      >,
    });
    this.pty.onData((data) => {
      this.written += Buffer.byteLength(data);
      // A frame drawn with synchronized output (pi-tui's) is shown whole, as a real terminal shows it: the
      // screen is checked only where no frame is half-written, even when a frame arrives in several reads.
      const seen = this.tail + data;
      const open = seen.lastIndexOf(SYNC_START);
      const close = seen.lastIndexOf(SYNC_END);
      if (open !== close) this.inFrame = open > close;
      this.tail = seen.slice(-SYNC_START.length);
      const settled = !this.inFrame;
      this.term.write(data, () => settled && this.wake());
    });
    this.term.onData((reply) => this.pty.write(reply));
    this.exited = new Promise((resolve) =>
      this.pty.onExit(({ exitCode }) => {
        resolve(exitCode);
        this.wake();
      }),
    );
  }

  /** The visible screen, one line per row, right-trimmed. */
  screen(): string {
    return this.lines(this.term.buffer.active.viewportY, this.term.rows);
  }

  /** Everything drawn so far, scrollback included. */
  all(): string {
    return this.lines(0, this.term.buffer.active.length);
  }

  /**
   * Waits until the screen (scrollback included) satisfies `what`; fails with the screen after `timeoutMs`, a guard
   * against a hang that a loaded machine's keel, drawing late, must not reach.
   */
  async waitFor(what: string | RegExp | ((text: string) => boolean), timeoutMs = 60_000): Promise<string> {
    const test = (text: string) =>
      typeof what === "string" ? text.includes(what) : what instanceof RegExp ? what.test(text) : what(text);
    return new Promise((resolve, reject) => {
      const check = () => {
        const text = this.all();
        if (!test(text)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(text);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`the screen never showed ${String(what)}; it shows:\n${this.screen()}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Types text as keystrokes (bracketed paste is not used: each character arrives as typed). */
  type(text: string): void {
    this.pty.write(text);
  }

  press(key: keyof typeof KEYS): void {
    this.pty.write(KEYS[key]);
  }

  /** Pastes text the way a terminal does when bracketed paste is on. */
  paste(text: string): void {
    this.pty.write(`\x1b[200~${text}\x1b[201~`);
  }

  kill(): void {
    try {
      this.pty.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  private lines(from: number, count: number): string {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = from; i < Math.min(buffer.length, from + count); i++)
      out.push((buffer.getLine(i)?.translateToString(true) ?? "").trimEnd());
    return out.join("\n").replace(/\n+$/, "");
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
