/**
 * Exec channels whose bash waits for its command. Each exec request costs the remote login shell's start-up
 * (sshd runs every command as `$SHELL -c ...`, and Debian's bash then reads ~/.bashrc, which may run pyenv,
 * nvm or conda: a second and more), so, like ops-local's spare shell, the next command's channel is opened as
 * the last one is taken, off the next call's path. A waiting bash reads a byte count and that many bytes of
 * script from the channel's stdin, then runs it; the rest of stdin is then the command's. Each waits under its
 * own tag (KEEL_PROCESS_TAG), which every process it starts inherits.
 */
import { randomBytes } from "node:crypto";
import type { ClientChannel } from "ssh2";
import type { Connection, SshPool } from "./pool.ts";
import { shellQuote } from "./shell-quote.ts";

/**
 * Says it is ready (on stderr), reads the script (its length in bytes, a newline, the bytes) and runs it; exits
 * quietly on end of input.
 */
const WAITER =
  "printf 'ready\\n' >&2; " +
  'IFS= read -r n || exit 0; LC_ALL=C IFS= read -r -N "$n" script || exit 0; eval "$script"';

export interface WaitingShell {
  channel: ClientChannel;
  tag: string;
  connection: Connection;
  /** Resolves once bash waits for its script (the login shell's start-up is over). */
  ready: Promise<void>;
  /** Calls `listener` with everything on stderr so far, now and whenever more comes. */
  onStderr(listener: (text: string) => void): void;
  /** Gives the session slot back once the channel is closed. */
  release(): void;
}

interface Opening {
  shell: Promise<WaitingShell>;
  closed: boolean;
}

export class WaitingShells {
  private next: Opening | undefined;
  private stopped = false;

  constructor(private readonly pool: SshPool) {}

  /** A waiting shell (the one opened ahead if it is still open, else a new one); opens the next at once. */
  async take(): Promise<WaitingShell> {
    const ahead = this.next;
    this.next = undefined;
    let shell: WaitingShell | undefined;
    if (ahead)
      shell = await ahead.shell
        .then((s) => (ahead.closed || s.connection.closed ? undefined : s))
        .catch(() => undefined);
    shell ??= await this.open().shell;
    if (!this.stopped && !this.next) {
      this.next = this.open();
      this.next.shell.catch(() => {}); // a failure shows when it is taken
    }
    return shell;
  }

  /** Resolves once the shell opened ahead waits for its script (for benchmarks of a warm call). */
  async warm(): Promise<void> {
    await (
      await this.next?.shell
    )?.ready;
  }

  /** Ends the shell waiting ahead (end of input makes it exit). */
  stop(): void {
    this.stopped = true;
    void this.next?.shell.then(
      (s) => s.channel.end(),
      () => {},
    );
    this.next = undefined;
  }

  private open(): Opening {
    const opening: Opening = { closed: false, shell: Promise.resolve(undefined as never) };
    opening.shell = (async () => {
      const { connection, release } = await this.pool.session();
      const tag = randomBytes(8).toString("hex");
      // Without SSH_CLIENT, the bashes keel starts do not read ~/.bashrc again (Debian's bash reads it when sshd
      // seems to run it, and `exec` keeps the shell level that would stop it).
      const line = `exec env -u SSH_CLIENT -u SSH2_CLIENT KEEL_PROCESS_TAG=${tag} bash -c ${shellQuote(WAITER)}`;
      try {
        const channel = await new Promise<ClientChannel>((resolve, reject) =>
          connection.client.exec(line, (error, opened) => (error ? reject(error) : resolve(opened))),
        );
        channel.once("close", () => {
          opening.closed = true;
          release();
        });
        let text = "";
        let listener: ((text: string) => void) | undefined;
        let isReady: () => void = () => {};
        const ready = new Promise<void>((resolve) => (isReady = resolve));
        channel.stderr.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
          if (text.includes("ready\n")) isReady();
          listener?.(text);
        });
        const onStderr = (next: (text: string) => void) => {
          listener = next;
          next(text);
        };
        return { channel, tag, connection, ready, onStderr, release };
      } catch (error) {
        release();
        throw error;
      }
    })();
    return opening;
  }
}
