/**
 * The sandbox battery: attacks a `bash` call may try (write outside the workspace, through a symlink, into
 * `.git/hooks`, remount `/`, TCP and UDP to a server on 127.0.0.1, read a host process's environment, read a
 * home dotfile) and the host-side check of whether each got through, plus the setup they need (the folders,
 * the servers, a host process holding a secret, and an unprivileged user to run everything as).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The unprivileged account the battery also runs as. */
export const SANDBOX_TEST_USER = "keel-sandbox-test";

/** uid/gid of the test user, created when absent (needs root; undefined when not root). */
export function ensureTestUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  if (spawnSync("id", ["-u", SANDBOX_TEST_USER]).status !== 0) {
    const made = spawnSync("useradd", ["--no-create-home", "--shell", "/usr/sbin/nologin", SANDBOX_TEST_USER], {
      encoding: "utf8",
    });
    if (made.status !== 0) throw new Error(`useradd ${SANDBOX_TEST_USER} failed: ${made.stderr}`);
  }
  const id = (flag: string) => Number(spawnSync("id", [flag, SANDBOX_TEST_USER], { encoding: "utf8" }).stdout.trim());
  return { uid: id("-u"), gid: id("-g") };
}

/** `setpriv` arguments that run a command as `user` with no supplementary groups. */
export function asUser(user: { uid: number; gid: number }): string[] {
  return ["setpriv", `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--"];
}

export interface BatteryWorld {
  root: string;
  /** The workspace (with `.git/hooks`, and `escape` → `outside`). */
  work: string;
  /** A writable folder outside the workspace. */
  outside: string;
  /** HOME: holds `.secret-rc` (never to be read) and `.gitconfig` (shown read-only when configured). */
  home: string;
  keelHome: string;
  secret: string;
}

/** Fresh folders, owned by `owner` when given (so the check is the sandbox, not file permissions). */
export function batteryWorld(owner?: { uid: number; gid: number }): BatteryWorld {
  const root = mkdtempSync(join(tmpdir(), "keel-sandbox-"));
  chmodSync(root, 0o755);
  const world = {
    root,
    work: join(root, "work"),
    outside: join(root, "outside"),
    home: join(root, "home"),
    keelHome: join(root, "keel-home"),
    secret: randomBytes(8).toString("hex"),
  };
  for (const dir of [world.work, join(world.work, ".git/hooks"), world.outside, world.home, world.keelHome])
    mkdirSync(dir, { recursive: true });
  symlinkSync(world.outside, join(world.work, "escape"));
  writeFileSync(join(world.home, ".secret-rc"), `export TOKEN=${world.secret}\n`);
  writeFileSync(join(world.home, ".gitconfig"), "[user]\n\tname = Sandbox Test\n");
  if (owner) spawnSync("chown", ["-R", `${owner.uid}:${owner.gid}`, root]);
  return world;
}

/** A TCP and a UDP server on 127.0.0.1 that record what reaches them. */
export class Listeners {
  tcpConnections = 0;
  readonly datagrams: string[] = [];
  private constructor(
    private readonly tcp: Server,
    private readonly udp: UdpSocket,
  ) {
    tcp.on("connection", (socket) => {
      this.tcpConnections++;
      socket.destroy();
    });
    udp.on("message", (message) => this.datagrams.push(message.toString()));
  }

  static async start(): Promise<Listeners> {
    const tcp = createServer();
    const udp = createSocket("udp4");
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
    return new Listeners(tcp, udp);
  }

  get tcpPort(): number {
    return (this.tcp.address() as { port: number }).port;
  }

  get udpPort(): number {
    return this.udp.address().port;
  }

  /**
   * Sends a marker on each server from the test itself and waits for both: what a command sent before has then
   * arrived too, so "nothing arrived" is a fact, not a guess about timing.
   */
  async settle(): Promise<void> {
    const before = this.tcpConnections;
    const marker = `settle-${randomBytes(4).toString("hex")}`;
    const client = createSocket("udp4");
    await new Promise<void>((resolve) => client.send(marker, this.udpPort, "127.0.0.1", () => resolve()));
    client.close();
    createConnection(this.tcpPort, "127.0.0.1").on("error", () => {});
    while (this.tcpConnections === before || !this.datagrams.includes(marker))
      await new Promise((resolve) => setImmediate(resolve));
    this.tcpConnections--;
    this.datagrams.splice(this.datagrams.indexOf(marker), 1);
  }

  close(): void {
    this.tcp.close();
    this.udp.close();
  }
}

/** A host process (`sleep`) with the secret in its environment, started as `prefix`'s user. */
export function secretHolder(secret: string, prefix: string[]): ChildProcess {
  const [program, ...args] = [...prefix, "sleep", "1000"];
  return spawn(program!, args, { env: { PATH: process.env.PATH, KEEL_SANDBOX_SECRET: secret }, stdio: "ignore" });
}

export interface Attack {
  name: string;
  command: string;
  /** True when the attack got through, judged on the host (and, for reads, from the command's output). */
  succeeded(output: string): boolean;
}

/** The attacks, for one world, server pair and secret holder. `remount` is left out of unsandboxed runs. */
export function attacks(
  world: BatteryWorld,
  net: Listeners,
  holderPid: number,
  options: { remount: boolean },
): Attack[] {
  const list: Attack[] = [
    {
      name: "write outside the workspace",
      command: `echo pwned > ${world.outside}/direct.txt`,
      succeeded: () => existsSync(join(world.outside, "direct.txt")),
    },
    {
      name: "write through a symlink",
      command: "echo pwned > escape/via-link.txt",
      succeeded: () => existsSync(join(world.outside, "via-link.txt")),
    },
    {
      name: "write into .git/hooks",
      command: "echo pwned > .git/hooks/pre-commit",
      succeeded: () => existsSync(join(world.work, ".git/hooks/pre-commit")),
    },
    {
      name: "TCP out",
      command: `exec 3<>/dev/tcp/127.0.0.1/${net.tcpPort} && echo connected`,
      succeeded: () => net.tcpConnections > 0,
    },
    {
      name: "UDP out",
      command: `echo leak > /dev/udp/127.0.0.1/${net.udpPort}`,
      succeeded: () => net.datagrams.includes("leak\n"),
    },
    {
      name: "read another process's environment",
      command:
        `cat /proc/${holderPid}/environ /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | ` +
        `grep '^KEEL_SANDBOX_SECRET='`,
      succeeded: (output) => output.includes(world.secret),
    },
    { name: "read a $HOME dotfile", command: "cat ~/.secret-rc", succeeded: (output) => output.includes(world.secret) },
  ];
  if (options.remount) {
    list.push({
      name: "remount / read-write",
      command: `mount -o remount,rw / && echo pwned > ${world.outside}/remount.txt`,
      succeeded: () => existsSync(join(world.outside, "remount.txt")),
    });
  }
  return list;
}

/** The text of a file, or undefined when it does not exist. */
export function contentOf(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}
