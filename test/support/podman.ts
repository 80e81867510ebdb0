/**
 * A private Podman for a test file or a benchmark: its own storage, its own containers.conf and its own Docker API
 * socket in a temp folder, serving one image built here (no image can be pulled on this machine). The image is
 * busybox-static with the applets linked, this machine's bash and ripgrep (unless left out) and nohup,
 * `/etc/keel-image` to tell it from the host, and a user `tester` (uid 1000). What containers.conf says, and why: runc
 * (crun fails on this machine), cgroupfs (no systemd), no default ulimits (raising nofile fails here), and no
 * exit-command delay, so the `conmon` each exec leaves waiting ends at once instead of after 5 minutes. Needs Debian's
 * podman, runc and busybox-static (.ci/run).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { dirname, join } from "node:path";
import { tempFolder } from "./workspace.ts";

export const TEST_IMAGE = "localhost/keel-test:1";

const CONTAINERS_CONF = `[containers]
default_ulimits = []
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
exit_command_delay = 0
`;

/**
 * No registry to search for a short name, and pulls from `localhost` refused at once (a test's missing image is
 * named there): a pull never leaves this machine, and fails without the three tries a refused connection gets.
 */
const REGISTRIES_CONF = `unqualified-search-registries = []
[[registry]]
location = "localhost"
blocked = true
`;

export interface Podman {
  /** The Docker API socket, for `"ops-container": { "socket" }`. */
  socket: string;
  image: string;
  /** Runs the podman CLI on this instance's storage; returns stdout. */
  cli(args: string[]): string;
  /** Names of the containers that exist (running or not). */
  containers(): string[];
  /** Stops the service, waits for its conmons, and deletes everything. */
  stop(): Promise<void>;
}

function requirePrograms(): void {
  const missing = ["podman", "runc", "busybox", "rg"].filter(
    (name) => !["/usr/bin", "/usr/sbin", "/bin", "/sbin"].some((dir) => existsSync(join(dir, name))),
  );
  if (missing.length > 0)
    throw new Error(
      `The container tests need ${missing.join(", ")}: apt-get install podman runc busybox-static ripgrep.`,
    );
}

/** Programs of this machine and the shared libraries they load (as `ldd` names them), copied to the same paths. */
function copyPrograms(dir: string, programs: string[]): void {
  const libraries = execFileSync("ldd", programs, { encoding: "utf8" })
    .split("\n")
    .map((line) => /(\/\S+) \(0x/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined);
  for (const file of new Set([...programs, ...libraries])) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    copyFileSync(realpathSync(file), join(dir, file));
  }
}

function buildRootfs(dir: string, bash: boolean): void {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  for (const folder of ["etc", "tmp", "proc", "sys", "dev", "root", "home/tester"])
    mkdirSync(join(dir, folder), { recursive: true });
  copyFileSync("/bin/busybox", join(bin, "busybox"));
  const applets = execFileSync("/bin/busybox", ["--list"], { encoding: "utf8" }).split("\n").filter(Boolean);
  for (const applet of applets) if (applet !== "busybox") symlinkSync("busybox", join(bin, applet));
  writeFileSync(join(dir, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\ntester:x:1000:1000::/home/tester:/bin/sh\n");
  writeFileSync(join(dir, "etc/group"), "root:x:0:\ntester:x:1000:\n");
  writeFileSync(join(dir, "etc/keel-image"), "keel test image\n");
  // nohup is not a busybox applet; the conformance suite's process trees use it. rg: grep and find use the
  // container's ripgrep when it has one.
  copyPrograms(dir, bash ? ["/usr/bin/nohup", "/bin/bash", "/usr/bin/rg"] : ["/usr/bin/nohup"]);
}

/** Resolves once something accepts connections on `socket`. */
async function answering(socket: string, service: ChildProcess, log: () => string): Promise<void> {
  for (;;) {
    if (service.exitCode !== null) throw new Error(`podman system service exited: ${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const probe = connect(socket, () => (probe.end(), resolve(true)));
      probe.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Pids of processes whose command line names `text` (this instance's folder). */
function processesNaming(text: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, "latin1").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** `bash: false` leaves bash out of the image, so commands run on busybox's sh. */
export async function startPodman(options: { bash?: boolean } = {}): Promise<Podman> {
  requirePrograms();
  const folder = tempFolder("keel-podman-");
  const at = (name: string) => join(folder.path, name);
  writeFileSync(at("containers.conf"), CONTAINERS_CONF);
  writeFileSync(at("registries.conf"), REGISTRIES_CONF);
  const env = {
    ...process.env,
    CONTAINERS_CONF: at("containers.conf"),
    CONTAINERS_REGISTRIES_CONF: at("registries.conf"),
  };
  const flags = ["--root", at("root"), "--runroot", at("run"), "--tmpdir", at("tmp")];
  const cli = (args: string[]) =>
    execFileSync("podman", [...flags, ...args], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  buildRootfs(at("rootfs"), options.bash !== false);
  execFileSync("tar", ["-C", at("rootfs"), "-cf", at("rootfs.tar"), "."]);
  cli(["import", at("rootfs.tar"), TEST_IMAGE]);
  const socket = at("podman.sock");
  let log = "";
  const service = spawn("podman", [...flags, "system", "service", "--time=0", `unix://${socket}`], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  service.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  await answering(socket, service, () => log);
  return {
    socket,
    image: TEST_IMAGE,
    cli,
    containers: () => cli(["ps", "-a", "--format", "{{.Names}}"]).split("\n").filter(Boolean),
    async stop() {
      const gone = new Promise((resolve) => service.once("exit", resolve));
      if (service.exitCode === null) service.kill("SIGTERM");
      await gone;
      // Containers a failed test left, then the conmons of its execs (which end by themselves once their
      // container is gone); anything still naming this folder after that is killed, by pid.
      cli(["rm", "-af", "-t", "0"]);
      for (let tries = 0; processesNaming(folder.path).length > 0 && tries < 100; tries++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      for (const pid of processesNaming(folder.path)) process.kill(pid, "SIGKILL");
      // Storage a container left mounted (deepest first), then the files.
      const mounts = readFileSync("/proc/mounts", "utf8")
        .split("\n")
        .map((line) => line.split(" ")[1] ?? "")
        .filter((point) => point.startsWith(`${folder.path}/`))
        .reverse();
      for (const point of mounts) execFileSync("umount", ["-l", point]);
      folder.remove();
    },
  };
}
