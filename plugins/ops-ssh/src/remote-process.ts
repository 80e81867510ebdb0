/**
 * A command on the remote host, with the local backend's semantics. It runs over its own exec channel: the
 * login shell execs bash with the command's environment and a tag (KEEL_PROCESS_TAG) every descendant inherits,
 * bash prints its pid on the channel's stderr, enters the working folder the helper checked and holds open
 * (`cd -P /proc/<helper>/fd/<n>`), and execs the command with stderr joined to stdout, so both arrive on one
 * stream in the order written. sshd makes each session's process a session and group leader, and reports its
 * exit (or the signal that killed it) when it exits, while a child may still hold the output.
 *
 * Neither an SSH signal request nor closing a channel without a terminal kills the remote process, so `kill`
 * goes through the helper, over its own channel: TERM to every process of the session, the group or the tag,
 * KILL after the grace period, until none is left.
 */
import { randomBytes } from "node:crypto";
import type { ProcessHandle, SpawnOptions } from "@keel/extensions-api";
import type { ClientChannel } from "ssh2";
import type { SshPool } from "./pool.ts";
import { shellQuote } from "./shell-quote.ts";

export const DEFAULT_GRACE_MS = 1000;
/** After the exit status, output still on its way is read until it has been quiet this long (as ops-local)... */
const DRAIN_IDLE_MS = 20;
/** ...but no longer than this, since a background child may hold the output and write forever. */
const DRAIN_MAX_MS = 200;

/**
 * bash's part: enter the checked folder, say the pid (the helper may then close the folder), become the
 * command. `$1` the folder, `$2` the command.
 */
const WRAPPER =
  'cd -P -- "$1" 2>/dev/null || { echo "keel: cannot enter $1" >&2; exit 126; }; printf "pid %s\\n" "$$" >&2; ' +
  'exec bash -c "$2" 2>&1';

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface RemoteSpawn {
  command: string;
  options: SpawnOptions;
  /** Opens the checked working folder on the helper; resolves its descriptor, or rejects with why not. */
  openCwd(): Promise<{ fd: number; helperPid: number; close(): void }>;
}

type Exit = { code: number | null; signal: string | null };

/** The remote command line for `spawn`, to be run by the user's login shell. */
function remoteCommand(command: string, env: Record<string, string>, tag: string, folder: string): string {
  const assignments = Object.entries(env).map(([name, value]) => {
    if (!VARIABLE_NAME.test(name)) throw new Error(`Cannot pass the environment variable ${JSON.stringify(name)}.`);
    return shellQuote(`${name}=${value}`);
  });
  return [
    "exec env",
    `KEEL_PROCESS_TAG=${tag}`,
    ...assignments,
    "bash -c",
    shellQuote(WRAPPER),
    "keel",
    shellQuote(folder),
    shellQuote(command),
  ].join(" ");
}

export function spawnRemote(pool: SshPool, spawn: RemoteSpawn): ProcessHandle {
  const { command, options } = spawn;
  const tag = randomBytes(8).toString("hex");
  const fed = options.stdin !== undefined || options.keepStdinOpen === true;
  let pid: number | undefined;
  let channel: ClientChannel | undefined;
  let exit: Exit | undefined;
  let resolvePid: () => void = () => {};
  const pidKnown = new Promise<void>((resolve) => (resolvePid = resolve));
  let killing: Promise<void> | undefined;

  const exited = (async (): Promise<Exit> => {
    const cwd = await spawn.openCwd();
    let release: (() => void) | undefined;
    try {
      const session = await pool.session();
      release = session.release;
      const line = remoteCommand(command, options.env ?? {}, tag, `/proc/${cwd.helperPid}/fd/${cwd.fd}`);
      channel = await new Promise<ClientChannel>((resolve, reject) =>
        session.connection.client.exec(line, (error, opened) => (error ? reject(error) : resolve(opened))),
      );
      const open = channel;
      return await new Promise<Exit>((resolve, reject) => {
        let stderr = "";
        let failure: string | undefined;
        let drain: NodeJS.Timeout | undefined;
        let drainUntil = 0;
        const settle = () => {
          clearTimeout(drain);
          if (failure) reject(new Error(`Cannot run ${JSON.stringify(command)}: ${failure}.`));
          else resolve(exit!);
        };
        const armDrain = () => {
          clearTimeout(drain);
          drain = setTimeout(settle, Math.max(0, Math.min(DRAIN_IDLE_MS, drainUntil - Date.now())));
        };
        const lost = (why: string) =>
          reject(
            new Error(
              `${why.charAt(0).toUpperCase()}${why.slice(1)} while ${JSON.stringify(command)} ran; the remote ` +
                `host may still run it.`,
            ),
          );
        session.connection.onClose.add(lost);
        open.on("data", (chunk: Buffer) => {
          options.onData?.(chunk);
          if (exit) armDrain();
        });
        open.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString("utf8");
          const said = /^pid (\d+)\n/.exec(stderr);
          if (said && pid === undefined) {
            pid = Number(said[1]);
            cwd.close();
            resolvePid();
          }
          if (/keel: cannot enter/.test(stderr)) failure = `the working folder could not be entered on the remote host`;
        });
        open.on("exit", (code: number | null, signal?: string) => {
          exit = { code: code ?? null, signal: code === null ? (signal ?? null) : null };
          drainUntil = Date.now() + DRAIN_MAX_MS;
          armDrain();
        });
        open.on("close", () => {
          session.connection.onClose.delete(lost);
          release?.();
          resolvePid();
          if (exit || failure) settle();
          else lost(session.connection.closed ?? `the SSH channel to ${pool.where} closed without an exit status`);
        });
        if (options.stdin !== undefined) open.end(options.stdin);
        else if (!options.keepStdinOpen) open.end();
      });
    } catch (error) {
      cwd.close();
      release?.();
      resolvePid();
      throw error;
    }
  })();
  // The caller may never look at `exited` (a kill before the start failed): no unhandled rejection then.
  exited.catch(() => {});

  const kill = (graceMs = DEFAULT_GRACE_MS): Promise<void> => {
    killing ??= (async () => {
      await pidKnown;
      if (pid === undefined) return;
      try {
        const { helper } = await pool.controlPair();
        await helper.request("kill", { pid, tag, grace: graceMs });
      } catch {
        // The connection is gone: nothing can be reached to kill; `exited` says so.
      }
      await exited.then(
        () => {},
        () => {},
      );
    })().finally(() => (killing = undefined));
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
    get pid() {
      return pid;
    },
    exited,
    write(data: string) {
      if (!fed || options.stdin !== undefined)
        throw new Error(
          `Cannot write to ${JSON.stringify(command)}: its stdin was closed at start. Start it with ` +
            `keepStdinOpen to send input.`,
        );
      if (channel) channel.write(data);
      else void pidKnown.then(() => channel?.write(data));
    },
    kill,
  };
}
