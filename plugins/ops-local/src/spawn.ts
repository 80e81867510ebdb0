/**
 * Runs a shell command on this machine as a `ProcessHandle`: its own process group, stdout and stderr on one
 * pipe in the order they were written, and a `kill` that takes the whole tree down, including descendants that
 * left the group with `setsid`.
 *
 * How descendants are found: every process started here gets a random tag in its environment
 * (`KEEL_PROCESS_TAG`), which children inherit through fork and exec and keep after `setsid` and after their
 * parent dies. At kill time the process table (`/proc`) is read once per pass: members are the tagged processes,
 * those still in the shell's process group or session, and any descendant (by parent pid) of those. A process
 * caught mid-exec shows no environment, so "nothing left" is only concluded from a scan where none did
 * (process-tree.ts). Only processes that
 * started no earlier than the shell are looked at (a descendant cannot be older), which keeps a pass to one
 * small read per process plus one per young process. Zombies count as gone, since not every init reaps
 * orphans. A process that both clears its environment and detaches from a parent that already exited cannot be
 * found; that is the one escape left, short of cgroups. Without `/proc` (macOS), kill falls back to the group.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import type { Socket } from "node:net";
import { delimiter, join } from "node:path";
import type { ProcessHandle } from "@keel/extensions-api";
import { randomHex } from "@keel/extensions-api/random-id";
import { forkCount, PROCESS_TAG_VARIABLE, startTimeOf, terminate, type ProcessTree } from "./process-tree.ts";

export { members, PROCESS_TAG_VARIABLE } from "./process-tree.ts";

export interface SpawnProcessOptions {
  /** Working directory, already resolved by the backend. */
  cwd: string;
  /** The complete environment of the process (the backend merges its base environment first). */
  env: Record<string, string>;
  /** Aborting kills the process tree with the default grace. */
  signal?: AbortSignal;
  /** Output as it arrives, stdout and stderr interleaved exactly as written. */
  onData?: (chunk: Uint8Array) => void;
  /** Written to stdin, which is then closed (unless `keepStdinOpen`). */
  stdin?: string;
  /** Keep stdin open so `write` can feed the process. Without it and without `stdin`, stdin is /dev/null. */
  keepStdinOpen?: boolean;
}

/** How long `kill` waits after TERM before sending KILL, unless told otherwise. */
export const DEFAULT_GRACE_MS = 1000;
/** The environment variable that marks every process of one spawn. */

/**
 * The shell script that runs the command. `exec 2>&1` puts stderr on the stdout pipe before the command is even
 * parsed, so the shell's own syntax errors arrive in order too; passing the command as `$1` to `eval` keeps its
 * text untouched and its line numbers right, and the `shift` inside leaves the command no stray arguments.
 */
export const WRAPPER = 'exec 2>&1; eval "shift; $1"';
/** After the shell exits, output still in the pipe is read until it has been quiet this long... */
export const DRAIN_IDLE_MS = 20;
/** ...but no longer than this, since a background child may hold the pipe and write forever. */
export const DRAIN_MAX_MS = 200;
/** How long to wait for KILLed processes to disappear before giving up on them. */

const shellCache = new Map<string, string>();

/** bash from PATH (or its usual places), else /bin/sh. */
export function findShell(pathVariable: string | undefined): string {
  const key = pathVariable ?? "";
  const cached = shellCache.get(key);
  if (cached) return cached;
  const shell = findProgram("bash", key, ["/bin/bash", "/usr/bin/bash"]) ?? "/bin/sh";
  shellCache.set(key, shell);
  return shell;
}

/** The first executable file `name` in the folders of `pathVariable`, else in `usual`; undefined if none. */
export function findProgram(name: string, pathVariable: string, usual: string[]): string | undefined {
  const candidates = [
    ...pathVariable
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, name)),
    ...usual,
  ];
  return candidates.find(isExecutable);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The error for a working folder `cwd` that does not exist or is not a folder. */
export function missingCwdError(command: string, cwd: string): Error {
  return new Error(
    `Cannot run ${JSON.stringify(command)}: the working directory ${cwd} does not exist or is not a ` +
      `folder. Create it or run the command elsewhere.`,
  );
}

/** Aborting `signal` calls `kill` (with the default grace), until the process has exited. */
export function killOnAbort(signal: AbortSignal | undefined, kill: () => unknown, exited: Promise<unknown>): void {
  if (!signal) return;
  const onAbort = () => void kill();
  if (signal.aborted) return onAbort();
  signal.addEventListener("abort", onAbort, { once: true });
  exited.finally(() => signal.removeEventListener("abort", onAbort)).catch(() => {});
}

/** The error for `write` on a process started without `keepStdinOpen`. */
export function stdinClosedError(command: string): Error {
  return new Error(
    `Cannot write to ${JSON.stringify(command)}: its stdin was closed at start. Start it with ` +
      `keepStdinOpen to send input.`,
  );
}

/** Starts `command` through the shell. Throws at once when `cwd` is not a folder. */
export function spawnProcess(command: string, options: SpawnProcessOptions): ProcessHandle {
  if (!existsSync(options.cwd) || !statSync(options.cwd).isDirectory()) throw missingCwdError(command, options.cwd);
  const shell = findShell(options.env.PATH);
  const tag = randomHex(12);
  const stdinOpen = options.keepStdinOpen === true || options.stdin !== undefined;
  const forks = forkCount(); // before the shell starts, so that every process of its tree is counted after it
  const child = spawn(shell, ["-c", WRAPPER, shell.split("/").pop() ?? "sh", command], {
    cwd: options.cwd,
    env: { ...options.env, [PROCESS_TAG_VARIABLE]: tag },
    detached: true,
    stdio: [stdinOpen ? "pipe" : "ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  const tree: ProcessTree | undefined =
    pid === undefined ? undefined : { leader: pid, tag, since: startTimeOf(pid), forks };
  const onData = options.onData ?? (() => {});
  let leaderGone = false;

  // stderr only carries what the shell says before `exec 2>&1` (it cannot start, say); the command's own
  // stderr arrives on stdout.
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  let outputClosed = false;
  child.stdout!.once("close", () => (outputClosed = true));

  if (child.stdin) {
    child.stdin.on("error", () => {}); // EPIPE when the process does not read its input; nothing to do.
    if (options.stdin !== undefined) child.stdin.write(options.stdin);
    if (!options.keepStdinOpen) child.stdin.end();
  }

  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve, reject) => {
    child.once("error", (error) => {
      leaderGone = true;
      if (pid === undefined)
        reject(
          new Error(
            `Could not start ${shell} for ${JSON.stringify(command)} ` +
              `in ${options.cwd}: ${error.message}. Check that the shell exists and is executable.`,
          ),
        );
    });
    child.once("exit", (code, signal) => {
      leaderGone = true;
      afterDrain(() => resolve({ code, signal }));
    });
  });
  exited.catch(() => {}); // callers that never await `exited` must not crash the host with an unhandled rejection.

  /** Lets output the shell wrote before exiting reach `onData`, without waiting on pipes others hold. */
  function afterDrain(done: () => void): void {
    const stdout = child.stdout as Socket;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(timer);
      stdout.off("data", arm);
      stdout.off("close", finish);
      stdout.unref?.(); // a leftover holder of the pipe must not keep the host alive
      done();
    };
    if (outputClosed) return finish();
    const deadline = Date.now() + DRAIN_MAX_MS;
    function arm() {
      clearTimeout(timer);
      timer = setTimeout(finish, Math.max(0, Math.min(DRAIN_IDLE_MS, deadline - Date.now())));
    }
    stdout.on("data", arm);
    stdout.once("close", finish);
    arm();
  }

  let killing: Promise<void> | undefined;
  const kill = (graceMs = DEFAULT_GRACE_MS): Promise<void> => {
    killing ??= terminate(tree, () => leaderGone, graceMs, exited).finally(() => (killing = undefined));
    return killing;
  };

  killOnAbort(options.signal, kill, exited);

  return {
    pid,
    exited,
    write(data: string) {
      if (!child.stdin) throw stdinClosedError(command);
      if (leaderGone || child.stdin.destroyed || child.stdin.writableEnded)
        throw new Error(`Cannot write to ${JSON.stringify(command)}: the process has exited and its stdin is closed.`);
      child.stdin.write(data);
    },
    kill,
  };
}
