/**
 * An OpenSSH server on 127.0.0.1 for tests: a temp folder with generated host and user keys, a known_hosts
 * file that knows the host key, and sshd in the foreground on a free port, logging in the test's own user by
 * key only. `stop()` kills it (tests that kill it mid-command call `restart()` after). Needs Debian's
 * openssh-server (CI installs it).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import { tempFolder } from "./workspace.ts";

export interface Sshd {
  host: string;
  port: number;
  user: string;
  /** The user's private key. */
  identityFile: string;
  /** Holds the host key as `[127.0.0.1]:port`. */
  knownHostsFile: string;
  /** A temp folder on this machine to serve as remote roots (removed by `stop`). */
  dir: string;
  /** The settings section that reaches this server, over `root`. */
  settings(root: string): Record<string, unknown>;
  /** The host key's public half, `type base64`. */
  hostKey: string;
  /** Kills sshd and every connection's sshd process, as a crash of the server would. */
  crash(): Promise<void>;
  /** Starts sshd again on the same port after `crash`. */
  restart(): Promise<void>;
  /** Kills sshd and removes the folder. */
  stop(): Promise<void>;
}

function keygen(path: string): void {
  const made = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "keel-test", "-f", path]);
  if (made.status !== 0) throw new Error(`ssh-keygen failed: ${made.stderr}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startSshd(): Promise<Sshd> {
  const folder = tempFolder("keel-sshd-");
  const at = (name: string) => join(folder.path, name);
  keygen(at("host_key"));
  keygen(at("user_key"));
  mkdirSync("/run/sshd", { recursive: true });
  const { readFileSync } = await import("node:fs");
  writeFileSync(at("authorized_keys"), readFileSync(at("user_key.pub")));
  const hostKey = readFileSync(at("host_key.pub"), "utf8").split(" ").slice(0, 2).join(" ");
  const port = await freePort();
  writeFileSync(at("known_hosts"), `[127.0.0.1]:${port} ${hostKey}\n`);
  writeFileSync(
    at("sshd_config"),
    [
      "ListenAddress 127.0.0.1",
      `HostKey ${at("host_key")}`,
      `AuthorizedKeysFile ${at("authorized_keys")}`,
      `PidFile ${at("sshd.pid")}`,
      "StrictModes no",
      "UsePAM no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "Subsystem sftp internal-sftp",
      "LogLevel ERROR",
      "UseDNS no",
      "PermitUserRC no",
      "PrintMotd no",
      "PrintLastLog no",
      "X11Forwarding no",
    ].join("\n") + "\n",
  );
  const user = userInfo().username;
  let child: ChildProcess | undefined;
  const start = async () => {
    const sshd = spawn("/usr/sbin/sshd", ["-D", "-e", "-f", at("sshd_config"), "-p", String(port)], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    sshd.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
    child = sshd;
    // Listening once a connection is accepted; a start that fails says why on stderr and exits.
    const { connect } = await import("node:net");
    for (;;) {
      if (sshd.exitCode !== null) throw new Error(`sshd exited: ${log}`);
      const ok = await new Promise<boolean>((resolve) => {
        const socket = connect(port, "127.0.0.1");
        socket.once("connect", () => (socket.destroy(), resolve(true)));
        socket.once("error", () => resolve(false));
      });
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const stopServer = async () => {
    const sshd = child;
    child = undefined;
    if (!sshd || sshd.exitCode !== null) return;
    const gone = new Promise((resolve) => sshd.once("exit", resolve));
    sshd.kill("SIGKILL");
    await gone;
  };
  await start();
  const sshd: Sshd = {
    host: "127.0.0.1",
    port,
    user,
    identityFile: at("user_key"),
    knownHostsFile: at("known_hosts"),
    dir: folder.path,
    hostKey,
    settings: (root) => ({
      host: "127.0.0.1",
      port,
      user,
      identityFile: at("user_key"),
      knownHostsFile: at("known_hosts"),
      root,
    }),
    async crash() {
      const pid = child?.pid;
      if (pid !== undefined) {
        // The listener's children serve the connections (each runs its commands): they go first, by pid.
        const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "latin1").split(" ").filter(Boolean);
        for (const each of children) process.kill(Number(each), "SIGKILL");
      }
      await stopServer();
    },
    async stop() {
      await stopServer();
      folder.remove();
    },
    restart: start,
  };
  return sshd;
}
