/**
 * The backend's connections to one target. OpenSSH serves at most 10 sessions (channels) per connection by
 * default, so commands that run at once are spread over connections, each given at most
 * `SESSIONS_PER_CONNECTION`; a new connection is made only when every open one is full, one at a time. The
 * first connection also carries the control pair, the SFTP session and the remote helper, which file
 * operations and kills go through. A lost connection is dropped; the next call connects again. Backends for the
 * same host, port, user and keys (a session's subagents, or several roots) share one pool (`SshPool.shared`).
 */
import type { Client, SFTPWrapper } from "ssh2";
import { connect } from "./connect.ts";
import { RemoteHelper } from "./remote-helper.ts";
import { describeTarget, type SshTarget } from "./target.ts";
import { WaitingShells } from "./waiting-shells.ts";

export const SESSIONS_PER_CONNECTION = 8;

export interface Connection {
  client: Client;
  sessions: number;
  /** Why it ended, once it has. */
  closed?: string;
  /** Called once when it ends. */
  onClose: Set<(why: string) => void>;
}

export interface Control {
  helper: RemoteHelper;
  sftp: SFTPWrapper;
  connection: Connection;
}

/** Pools in use, by what they connect to (not the root), with how many backends use each. */
const SHARED = new Map<string, { pool: SshPool; users: number }>();

export class SshPool {
  /** The pool for `target`'s connection, shared while any backend uses it; `release` when done with it. */
  static shared(target: SshTarget): { pool: SshPool; release(): void } {
    const { root: _root, ...connection } = target;
    const key = JSON.stringify(connection);
    let entry = SHARED.get(key);
    if (!entry || entry.pool.closed) SHARED.set(key, (entry = { pool: new SshPool(target), users: 0 }));
    const used = entry;
    used.users++;
    let released = false;
    return {
      pool: used.pool,
      release() {
        if (released) return;
        released = true;
        if (--used.users > 0) return;
        used.pool.close();
        if (SHARED.get(key) === used) SHARED.delete(key);
      },
    };
  }

  private readonly connections: Connection[] = [];
  private connecting: Promise<Connection> | undefined;
  private control: Promise<Control> | undefined;
  closed = false;
  readonly where: string;
  /** Commands' channels, each opened ahead of the command that takes it. */
  readonly shells = new WaitingShells(this);

  constructor(readonly target: SshTarget) {
    this.where = describeTarget(target);
  }

  /** The helper and SFTP session, started on first use and again after their connection was lost. */
  controlPair(): Promise<Control> {
    this.control ??= this.startControl().catch((error: Error) => {
      this.control = undefined;
      throw error;
    });
    return this.control;
  }

  /** A connection with a session counted as taken for the caller; `release` gives it back. */
  async session(): Promise<{ connection: Connection; release(): void }> {
    for (;;) {
      if (this.closed) throw new Error(`The ssh backend for ${this.where} is closed.`);
      const free = this.connections.find((c) => !c.closed && c.sessions < SESSIONS_PER_CONNECTION);
      if (free) {
        free.sessions++;
        let released = false;
        return {
          connection: free,
          release: () => {
            if (!released) free.sessions--;
            released = true;
          },
        };
      }
      await (this.connecting ??= this.open().finally(() => (this.connecting = undefined)));
    }
  }

  close(): void {
    this.closed = true;
    this.shells.stop();
    for (const c of this.connections) c.client.end();
  }

  private async startControl(): Promise<Control> {
    const { connection, release } = await this.session();
    connection.sessions++; // the helper's channel and the SFTP session both stay open
    try {
      const helper = await RemoteHelper.start(connection.client, this.where);
      const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
        connection.client.sftp((error, sftp) => (error ? reject(error) : resolve(sftp))),
      );
      connection.onClose.add(() => (this.control = undefined));
      return { helper, sftp, connection };
    } catch (error) {
      connection.sessions--;
      release();
      throw error;
    }
  }

  private async open(): Promise<Connection> {
    const client = await connect(this.target);
    const connection: Connection = { client, sessions: 0, onClose: new Set() };
    let reason = "the server closed it";
    client.on("error", (error: Error) => void (reason = error.message));
    client.on("close", () => {
      connection.closed = `the SSH connection to ${this.where} was lost (${reason})`;
      const index = this.connections.indexOf(connection);
      if (index !== -1) this.connections.splice(index, 1);
      for (const listener of connection.onClose) listener(connection.closed);
    });
    if (this.closed) client.end();
    this.connections.push(connection);
    return connection;
  }
}
