/**
 * The stdio transport, keel's own rather than the SDK's: the server runs in its own process group, so
 * stopping it stops what it started too (the SDK's `close()` signals only the direct child, SDK issue #2023,
 * and an `npx` server leaves its real process running), and its stderr goes to a log file, never to ours.
 * Messages are the SDK's: newline-delimited JSON-RPC through its `ReadBuffer` and `serializeMessage`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { openSync, closeSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Where the server's stderr is appended. */
  logFile: string;
}

/** How long a server gets to exit after SIGTERM before its group is killed. */
const TERM_GRACE_MS = 2_000;

/** Groups still running; if keel exits without stopping them (an uncaught error, `process.exit`), they go too. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function watchGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const group of liveGroups) signalGroup(group, "SIGKILL");
  });
}

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    const { command, args, env, cwd, logFile } = this.launch;
    mkdirSync(dirname(logFile), { recursive: true });
    const log = openSync(logFile, "a");
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        cwd,
        env: { ...process.env, ...env },
        stdio: ["pipe", "pipe", log],
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      closeSync(log);
      child.once("error", (error) => {
        reject(new Error(`could not start "${command}": ${error.message}`));
        this.onerror?.(error);
        this.finish();
      });
      child.once("spawn", () => {
        watchGroup(child.pid!);
        resolve();
      });
      child.once("exit", () => this.finish());
      child.stdin!.on("error", (error) => this.onerror?.(error));
      child.stdout!.on("data", (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.drain();
      });
    });
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (!message) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed) return reject(new Error("the server is not running"));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the whole process group: SIGTERM, then SIGKILL after a grace period if anything is left. */
  async close(): Promise<void> {
    const child = this.child;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.stdin?.end();
      signalGroup(child.pid, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child.pid!, "SIGKILL"), TERM_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    // The leader may have exited (or crashed) and left members behind: they get the same end.
    if (child?.pid !== undefined) {
      signalGroup(child.pid, "SIGKILL");
      liveGroups.delete(child.pid);
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
