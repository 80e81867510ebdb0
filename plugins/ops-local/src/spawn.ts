/**
 * Runs a shell command on this machine as a `ProcessHandle`: its own process group, stdout and stderr on one
 * pipe in the order they were written, and a `kill` that takes the whole tree down, including descendants that
 * left the group with `setsid`.
 *
 * How descendants are found: every process started here gets a random tag in its environment
 * (`KEEL_PROCESS_TAG`), which children inherit through fork and exec and keep after `setsid` and after their
 * parent dies. At kill time the process table (`/proc`) is read once per pass: members are the tagged processes,
 * the process group while its leader lives, and any descendant (by parent pid) of those. Only processes that
 * started no earlier than the shell are looked at (a descendant cannot be older), which keeps a pass to one
 * small read per process plus one per young process. Zombies count as gone, since not every init reaps
 * orphans. A process that both clears its environment and detaches from a parent that already exited cannot be
 * found; that is the one escape left, short of cgroups. Without `/proc` (macOS), kill falls back to the group.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import type { Socket } from "node:net";
import { delimiter, join } from "node:path";
import type { ProcessHandle } from "@keel/extensions-api";

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
export const PROCESS_TAG_VARIABLE = "KEEL_PROCESS_TAG";

/**
 * The shell script that runs the command. `exec 2>&1` puts stderr on the stdout pipe before the command is even
 * parsed, so the shell's own syntax errors arrive in order too; passing the command as `$1` to `eval` keeps its
 * text untouched and its line numbers right, and the `shift` inside leaves the command no stray arguments.
 */
const WRAPPER = 'exec 2>&1; eval "shift; $1"';
/** After the shell exits, output still in the pipe is read until it has been quiet this long... */
const DRAIN_IDLE_MS = 20;
/** ...but no longer than this, since a background child may hold the pipe and write forever. */
const DRAIN_MAX_MS = 200;
const POLL_MS = 15;
/** How long to wait for KILLed processes to disappear before giving up on them. */
const KILL_WAIT_MS = 3000;

const shellCache = new Map<string, string>();

/** bash from PATH (or its usual places), else /bin/sh. */
export function findShell(pathVariable: string | undefined): string {
  const key = pathVariable ?? "";
  const cached = shellCache.get(key);
  if (cached) return cached;
  const candidates = [...key.split(delimiter).filter(Boolean).map((dir) => join(dir, "bash")), "/bin/bash", "/usr/bin/bash"];
  const shell = candidates.find(isExecutable) ?? "/bin/sh";
  shellCache.set(key, shell);
  return shell;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Starts `command` through the shell. Throws at once when `cwd` is not a folder. */
export function spawnProcess(command: string, options: SpawnProcessOptions): ProcessHandle {
  if (!existsSync(options.cwd) || !statSync(options.cwd).isDirectory()) {
    throw new Error(`Cannot run ${JSON.stringify(command)}: the working directory ${options.cwd} does not exist or is not a folder. Create it or run the command elsewhere.`);
  }
  const shell = findShell(options.env.PATH);
  const tag = randomBytes(12).toString("hex");
  const stdinOpen = options.keepStdinOpen === true || options.stdin !== undefined;
  const child = spawn(shell, ["-c", WRAPPER, shell.split("/").pop() ?? "sh", command], {
    cwd: options.cwd,
    env: { ...options.env, [PROCESS_TAG_VARIABLE]: tag },
    detached: true,
    stdio: [stdinOpen ? "pipe" : "ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  const tree: ProcessTree | undefined = pid === undefined ? undefined : { leader: pid, tag, since: startTimeOf(pid) };
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
      if (pid === undefined) reject(new Error(`Could not start ${shell} for ${JSON.stringify(command)} in ${options.cwd}: ${error.message}. Check that the shell exists and is executable.`));
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

  if (options.signal) {
    const onAbort = () => void kill();
    if (options.signal.aborted) onAbort();
    else {
      options.signal.addEventListener("abort", onAbort, { once: true });
      exited.finally(() => options.signal!.removeEventListener("abort", onAbort)).catch(() => {});
    }
  }

  return {
    pid,
    exited,
    write(data: string) {
      if (!child.stdin) throw new Error(`Cannot write to ${JSON.stringify(command)}: its stdin was closed at start. Start it with keepStdinOpen to send input.`);
      if (leaderGone || child.stdin.destroyed || child.stdin.writableEnded) throw new Error(`Cannot write to ${JSON.stringify(command)}: the process has exited and its stdin is closed.`);
      child.stdin.write(data);
    },
    kill,
  };
}

async function terminate(tree: ProcessTree | undefined, leaderGone: () => boolean, graceMs: number, exited: Promise<unknown>): Promise<void> {
  if (tree === undefined) return;
  const alive = () => !leaderGone() || members(tree, leaderGone()).length > 0;
  if (!alive()) return;
  signalAll(tree, leaderGone, "SIGTERM");
  const termDeadline = Date.now() + graceMs;
  while (alive() && Date.now() < termDeadline) await delay(POLL_MS);
  const killDeadline = Date.now() + KILL_WAIT_MS;
  // Each pass KILLs again: a process may have forked between the scan and the signal.
  while (alive() && Date.now() < killDeadline) {
    signalAll(tree, leaderGone, "SIGKILL");
    await delay(POLL_MS);
  }
  await Promise.race([exited.catch(() => {}), delay(KILL_WAIT_MS)]);
}

function signalAll(tree: ProcessTree, leaderGone: () => boolean, signal: NodeJS.Signals): void {
  // The group id stays ours while the leader is unreaped; after that a stranger could reuse the number.
  if (!leaderGone()) trySignal(-tree.leader, signal);
  for (const member of members(tree, leaderGone())) trySignal(member, signal);
}

function trySignal(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal);
  } catch {
    // ESRCH: already gone. EPERM: not ours to kill; nothing more can be done from here.
  }
}

/** What identifies the processes of one spawn. */
export interface ProcessTree {
  /** The shell's pid, which is also its process group id. */
  leader: number;
  /** The value of `KEEL_PROCESS_TAG` in their environment. */
  tag: string;
  /** The shell's start time in clock ticks since boot; older processes cannot belong to it. */
  since: number;
}

interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Whether its environment carries the tag. */
  tagged: boolean;
}

const hasProc = existsSync("/proc/self/stat");

/**
 * Live processes belonging to one spawn: tagged ones, the group while the leader lives, and descendants of
 * either. Without /proc, the group's liveness is all that can be seen.
 */
export function members(tree: ProcessTree, leaderGone: boolean): number[] {
  if (!hasProc) return groupAlive(tree.leader) ? [-tree.leader] : [];
  const entries = liveProcesses(tree);
  const found = new Set<number>();
  for (const entry of entries) {
    if (entry.pid === process.pid) continue;
    if ((!leaderGone && entry.pgid === tree.leader) || entry.tagged) found.add(entry.pid);
  }
  let grew = found.size > 0;
  while (grew) {
    grew = false;
    for (const entry of entries) {
      if (!found.has(entry.pid) && found.has(entry.ppid)) {
        found.add(entry.pid);
        grew = true;
      }
    }
  }
  return [...found];
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Live processes no older than the tree's shell. */
function liveProcesses(tree: ProcessTree): ProcessEntry[] {
  const marker = Buffer.from(`${PROCESS_TAG_VARIABLE}=${tree.tag}\0`);
  const out: ProcessEntry[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const fields = statFields(pid);
    if (!fields || fields[0] === "Z" || fields[0] === "X" || Number(fields[STARTTIME_FIELD]) < tree.since) continue;
    out.push({ pid, ppid: Number(fields[1]), pgid: Number(fields[2]), tagged: hasMarker(pid, marker) });
  }
  return out;
}

/** Field 22 of /proc/<pid>/stat (`starttime`), counted from the state field (3). */
const STARTTIME_FIELD = 22 - 3;

/** When `pid` started, in clock ticks since boot; 0 when it cannot be read (then nothing is filtered out). */
function startTimeOf(pid: number): number {
  return (hasProc && Number(statFields(pid)?.[STARTTIME_FIELD])) || 0;
}

const statBuffer = Buffer.alloc(4096);

/**
 * The fields of /proc/<pid>/stat from the state on, or undefined when the process is gone. One open, one read,
 * one close: a pass reads this file for every process, so the syscalls readFileSync adds are worth saving.
 */
function statFields(pid: number): string[] | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/stat`, "r");
    const stat = statBuffer.toString("latin1", 0, readSync(fd, statBuffer, 0, statBuffer.length, 0));
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function hasMarker(pid: number, marker: Buffer): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(marker);
  } catch {
    return false; // gone, or not ours to read
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
