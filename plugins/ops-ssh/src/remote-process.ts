/**
 * A command on the remote host, with the local backend's semantics. It runs in a waiting bash
 * (./waiting-shells.ts), on that shell's own exec channel: the script it is sent enters the working folder the
 * helper checked and holds open (`cd -P /proc/<helper>/fd/<n>`), prints the pid on the channel's stderr, marks
 * the start of the output on stdout, and execs the command with stderr joined to stdout, so both arrive on one
 * stream in the order written. sshd makes each session's process a session and group leader, and reports its
 * exit (or the signal that killed it) when it exits, while a child may still hold the output.
 *
 * Neither an SSH signal request nor closing a channel without a terminal kills the remote process, so `kill`
 * goes through the helper, over its own channel: TERM to every process of the session, the group or the tag,
 * KILL after the grace period, until none is left.
 */
import type { ProcessHandle, SpawnOptions } from "@keel/extensions-api";
import type { ClientChannel } from "ssh2";
import type { SshPool } from "./pool.ts";
import { shellQuote } from "./shell-quote.ts";

export const DEFAULT_GRACE_MS = 1000;
/**
 * sshd may send the exit status before the last of the output (it reaps the shell before it reads the pipe), so
 * after the exit the output is read until its end (EOF), but no longer than this: a background child may hold
 * it open and write forever.
 */
const DRAIN_MAX_MS = 200;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the waiting bash prints on stdout just before it becomes the command: output before it is not ours. */
const START = "\u001ekeel-start\u001e";

export interface RemoteSpawn {
  command: string;
  options: SpawnOptions;
  /** Opens the checked working folder on the helper; resolves its descriptor, or rejects with why not. */
  openCwd(): Promise<{ fd: number; helperPid: number; close(): void }>;
}

type Exit = { code: number | null; signal: string | null };

/**
 * The script a waiting bash runs: enter the checked folder, say its pid (the helper may then let the folder go),
 * mark the start of the output, and become the command with stderr joined to stdout.
 */
function startScript(command: string, env: Record<string, string>, folder: string): string {
  const assignments = Object.entries(env).map(([name, value]) => {
    if (!VARIABLE_NAME.test(name)) throw new Error(`Cannot pass the environment variable ${JSON.stringify(name)}.`);
    return shellQuote(`${name}=${value}`);
  });
  return [
    `cd -P -- ${shellQuote(folder)} 2>/dev/null || { echo "keel: cannot enter the folder" >&2; exit 126; }`,
    `printf 'pid %s\\n' "$$" >&2`,
    `printf '\\036keel-start\\036'`,
    `exec env ${assignments.join(" ")} bash -c ${shellQuote(command)} 2>&1`,
  ].join("\n");
}

export function spawnRemote(pool: SshPool, spawn: RemoteSpawn): ProcessHandle {
  const { command, options } = spawn;
  let tag = "";
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
      const script = startScript(command, options.env ?? {}, `/proc/${cwd.helperPid}/fd/${cwd.fd}`);
      const shell = await pool.shells.take();
      release = shell.release;
      tag = shell.tag;
      channel = shell.channel;
      const open = channel;
      return await new Promise<Exit>((resolve, reject) => {
        let failure: string | undefined;
        let drain: NodeJS.Timeout | undefined;
        let ended = false;
        const settle = () => {
          clearTimeout(drain);
          if (failure) reject(new Error(`Cannot run ${JSON.stringify(command)}: ${failure}.`));
          else resolve(exit!);
        };
        open.once("end", () => {
          ended = true;
          if (exit) settle();
        });
        // A lost connection fails the command, unless its exit status came first (then it only cut the output).
        const lost = (why: string) =>
          exit
            ? settle()
            : reject(
                new Error(
                  `${why.charAt(0).toUpperCase()}${why.slice(1)} while ${JSON.stringify(command)} ran; the remote ` +
                    `host may still run it.`,
                ),
              );
        shell.connection.onClose.add(lost);
        // Until the start mark, stdout is the login shell's (a ~/.bashrc that prints), not the command's.
        let before: Buffer | undefined = Buffer.alloc(0);
        open.on("data", (chunk: Buffer) => {
          if (before) {
            before = Buffer.concat([before, chunk]);
            const at = before.indexOf(START);
            if (at === -1) return;
            chunk = before.subarray(at + START.length);
            before = undefined;
            if (chunk.length === 0) return;
          }
          options.onData?.(chunk);
        });
        shell.onStderr((text) => {
          const said = /(?:^|\n)pid (\d+)\n/.exec(text);
          if (said && pid === undefined) {
            pid = Number(said[1]);
            cwd.close();
            resolvePid();
          }
          if (/keel: cannot enter/.test(text)) failure = `the working folder could not be entered on the remote host`;
        });
        open.on("exit", (code: number | null, signal?: string) => {
          exit = { code: code ?? null, signal: code === null ? (signal ?? null) : null };
          if (ended) settle();
          else drain = setTimeout(settle, DRAIN_MAX_MS);
        });
        open.on("close", () => {
          shell.connection.onClose.delete(lost);
          release?.();
          resolvePid();
          if (exit || failure) settle();
          else lost(shell.connection.closed ?? `the SSH channel to ${pool.where} closed without an exit status`);
        });
        open.write(`${Buffer.byteLength(script)}\n${script}`);
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
