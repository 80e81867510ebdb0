/**
 * Finding and killing every process one spawn started, through /proc: the tagged processes, the process group
 * while its leader lives, and descendants of either by parent pid. See spawn.ts for why a tag.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";

export const PROCESS_TAG_VARIABLE = "KEEL_PROCESS_TAG";
const POLL_MS = 15;
const KILL_WAIT_MS = 3000;
const SETTLE_TRIES = 6;

export async function terminate(
  tree: ProcessTree | undefined,
  leaderGone: () => boolean,
  graceMs: number,
  exited: Promise<unknown>,
): Promise<void> {
  if (tree === undefined) return;
  // A process caught in the middle of exec shows an empty environment, so a scan can miss it: while a young
  // process shows none, look again (a few times: a chain like setsid → sh → sleep execs more than once).
  // Both answers must come from the same scan, or the process can finish its exec in between.
  const signalled = new Signalled();
  for (let tries = 0; ; tries++) {
    if (!leaderGone()) break;
    const scan = scanTree(tree, true);
    if (scan.members.length > 0) {
      signalled.track(scan.members); // the next scan may catch one of these mid-exec, and miss it
      break;
    }
    if (tries >= SETTLE_TRIES || !scan.unsettled) return;
    await delay(POLL_MS);
  }
  const alive = () => {
    if (!leaderGone() || signalled.anyAlive()) return true;
    const scan = scanTree(tree, true);
    return scan.members.length > 0 || scan.unsettled;
  };
  signalled.signalAll(tree, leaderGone, "SIGTERM");
  const termDeadline = Date.now() + graceMs;
  while (alive() && Date.now() < termDeadline) await delay(POLL_MS);
  const killDeadline = Date.now() + KILL_WAIT_MS;
  // Each pass KILLs again: a process may have forked between the scan and the signal.
  while (alive() && Date.now() < killDeadline) {
    signalled.signalAll(tree, leaderGone, "SIGKILL");
    await delay(POLL_MS);
  }
  await Promise.race([exited.catch(() => {}), delay(KILL_WAIT_MS)]);
}

/**
 * The members one kill has seen, by pid and start time. A scan loses sight of a member while it is in the middle
 * of exec (its environment reads empty, and after setsid nothing else ties it to the tree), so a member once
 * seen counts as alive, and is signalled again, until it is gone; the start time keeps out a stranger that
 * reused its pid.
 */
class Signalled {
  private readonly started = new Map<number, number>();

  track(pids: number[]): void {
    for (const pid of pids) if (!this.started.has(pid)) this.started.set(pid, startTimeOf(pid));
  }

  signalAll(tree: ProcessTree, leaderGone: () => boolean, signal: NodeJS.Signals): void {
    // The group id stays ours while the leader is unreaped; after that a stranger could reuse the number.
    if (!leaderGone()) trySignal(-tree.leader, signal);
    this.track(members(tree, leaderGone()));
    for (const pid of this.started.keys()) if (this.isAlive(pid)) trySignal(pid, signal);
  }

  anyAlive(): boolean {
    for (const pid of this.started.keys()) if (this.isAlive(pid)) return true;
    return false;
  }

  private isAlive(pid: number): boolean {
    const fields = statFields(pid);
    if (!fields || fields[0] === "Z" || fields[0] === "X") return false;
    return Number(fields[STARTTIME_FIELD]) === this.started.get(pid);
  }
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
  /** The machine's fork counter just before the shell was started (`forkCount()`); see `lowestPid`. */
  forks?: number;
}

/**
 * A tree known only by its tag, for a command whose shell's pid never arrived (its helper hung): no process
 * has this group or session id, so only tagged processes and their descendants are members. Kill it with
 * `leaderGone` true, since there is no group to signal.
 */
export function taggedOnly(tag: string): ProcessTree {
  return { leader: Number.MAX_SAFE_INTEGER, tag, since: 0 };
}

interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Session id: the spawned shell leads its own session, so its descendants share it until they call setsid. */
  sid: number;
  /** Whether its environment carries the tag; undefined when the environment read empty (mid-exec). */
  tagged: boolean | undefined;
}

const hasProc = existsSync("/proc/self/stat");

/**
 * Live processes belonging to one spawn: tagged ones, those still in its process group or session, and
 * descendants of any of them. Without /proc, the group's liveness is all that can be seen.
 */
export function members(tree: ProcessTree, leaderGone: boolean): number[] {
  return scanTree(tree, leaderGone).members;
}

/**
 * One pass over the process table: the members, and whether some young process showed no environment (it
 * may be one of ours in the middle of exec, so "no members" is not yet certain).
 */
function scanTree(tree: ProcessTree, leaderGone: boolean): { members: number[]; unsettled: boolean } {
  if (!hasProc) return { members: groupAlive(tree.leader) ? [-tree.leader] : [], unsettled: false };
  const entries = liveProcesses(tree).filter((entry) => entry.pid !== process.pid);
  const found = new Set<number>();
  for (const entry of entries) {
    // A group or session id cannot be reused while a live process still carries it, so any process that does
    // is ours — except a new process that reused the number of a leader already reaped.
    const inGroup =
      (entry.pgid === tree.leader || entry.sid === tree.leader) && !(leaderGone && entry.pid === tree.leader);
    if (inGroup || entry.tagged) found.add(entry.pid);
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
  return {
    members: [...found],
    unsettled: entries.some((entry) => entry.tagged === undefined && !found.has(entry.pid)),
  };
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
  const names = readdirSync("/proc");
  const lowest = lowestPid(tree, names.length);
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid < lowest) continue;
    const fields = statFields(pid);
    if (!fields || fields[0] === "Z" || fields[0] === "X" || Number(fields[STARTTIME_FIELD]) < tree.since) continue;
    out.push({
      pid,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      sid: Number(fields[3]),
      tagged: hasMarker(pid, marker),
    });
  }
  return out;
}

/**
 * The lowest pid a member can have. The kernel hands out pids in rising order from the last one it gave, and
 * wraps to the bottom only past `pid_max`; so while too few processes were forked since the shell started to
 * have wrapped around, every descendant's pid is above the shell's and only those few young entries need reading
 * (a pass then costs one listing of /proc plus one read per process started since, not one per process on the
 * machine). The fork counter counts threads too, and only half the pids above the shell's are allowed for, since
 * pids then in use are skipped by the kernel: the test errs towards a full pass. Read after the listing, the
 * counter covers every process the listing shows.
 */
function lowestPid(tree: ProcessTree, listed: number): number {
  if (tree.forks === undefined) return 0;
  const forked = forkCount();
  if (forked === undefined) return 0;
  return forked - tree.forks + listed < (pidMax() - tree.leader) / 2 ? tree.leader : 0;
}

/** How many processes and threads the machine has forked since boot (`processes` in /proc/stat). */
export function forkCount(): number | undefined {
  if (!hasProc) return undefined;
  try {
    const match = /^processes (\d+)$/m.exec(readFileSync("/proc/stat", "latin1"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

let cachedPidMax: number | undefined;
function pidMax(): number {
  if (cachedPidMax === undefined) {
    try {
      cachedPidMax = Number(readFileSync("/proc/sys/kernel/pid_max", "latin1")) || 0;
    } catch {
      cachedPidMax = 0; // unknown: never skip anything
    }
  }
  return cachedPidMax;
}

/** Field 22 of /proc/<pid>/stat (`starttime`), counted from the state field (3). */
const STARTTIME_FIELD = 22 - 3;

/** True when `pid` has exited (a zombie has) or never was; false where /proc cannot tell. */
export function exitedProcess(pid: number): boolean {
  if (!hasProc) return false;
  const state = statFields(pid)?.[0];
  return state === undefined || state === "Z" || state === "X";
}

/** When `pid` started, in clock ticks since boot; 0 when it cannot be read (then nothing is filtered out). */
export function startTimeOf(pid: number): number {
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

function hasMarker(pid: number, marker: Buffer): boolean | undefined {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`);
    return environ.length === 0 ? undefined : environ.includes(marker);
  } catch {
    return false; // gone, or not ours to read
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
