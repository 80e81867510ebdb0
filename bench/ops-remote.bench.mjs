// Remote operations backends against the local one, per tool call: `read` and `write` of a small file through
// the real file tools, and `bash echo` through the real bash tool, on each backend in the same run
// (interleaved, medians), as ratios to local; and the time to set one up (for ssh: connect, check the host key,
// log in, start the helper, resolve the root; for a container: create and start it, or attach to a running one).
// `bash echo` right after the call before pays the remote login shell's start-up (a container: the exec's);
// `after a pause` finds the shell (exec) opened ahead ready, as it is between a model's turns. The ssh server is
// an OpenSSH sshd on 127.0.0.1 started here; the container engine a private Podman on runc (test/support/
// podman.ts). The container backend's code load is timed in a fresh node, built (`npm run build` first).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { bashToolCase, importSource, interleaved, median, ms, printTable, ratio } from "./lib.mjs";

/** @type {typeof import("../plugins/ops-local/src/local-ops.ts")} */
const { createLocalOps } = await importSource("plugins/ops-local/src/local-ops.ts");
/** @type {typeof import("../plugins/ops-ssh/src/create.ts")} */
const { createSshOps } = await importSource("plugins/ops-ssh/src/create.ts");
/** @type {typeof import("../plugins/ops-ssh/src/settings.ts")} */
const { SshSettingsSchema } = await importSource("plugins/ops-ssh/src/settings.ts");
/** @type {typeof import("../plugins/tools-fs/src/tools.ts")} */
const { createFileTools } = await importSource("plugins/tools-fs/src/tools.ts");
/** @type {typeof import("../test/support/sshd.ts")} */
const { startSshd } = await importSource("test/support/sshd.ts");
/** @type {typeof import("../test/support/podman.ts")} */
const { startPodman } = await importSource("test/support/podman.ts");
/** @type {typeof import("../plugins/ops-container/src/container.ts")} */
const { ContainerSession } = await importSource("plugins/ops-container/src/container.ts");
/** @type {typeof import("../plugins/ops-container/src/container-ops.ts")} */
const { ContainerOps } = await importSource("plugins/ops-container/src/container-ops.ts");
/** @type {typeof import("../plugins/ops-container/src/engine.ts")} */
const { connectEngine } = await importSource("plugins/ops-container/src/engine.ts");
/** @type {typeof import("../plugins/ops-container/src/workspace-map.ts")} */
const { WorkspaceMap } = await importSource("plugins/ops-container/src/workspace-map.ts");

const RUNS = Number(process.env.OPS_REMOTE_BENCH_RUNS ?? 60);
const SETUPS = Number(process.env.OPS_REMOTE_BENCH_SETUPS ?? 10);
const WARMUP = 5;

const sshd = await startSshd();
const folder = (name) => {
  const path = join(sshd.dir, name);
  mkdirSync(path);
  return path;
};
const sshSettings = (root) => SshSettingsSchema.parse(sshd.settings(root));
const local = createLocalOps({ cwd: folder("local") });
const ssh = await createSshOps(sshSettings(folder("ssh")));

const podman = await startPodman();
const docker = await connectEngine(podman.socket);
/** A container backend over `cwd`, started from the test image, or attached to `container`. */
async function containerOps(cwd, container) {
  const plan = { image: podman.image, workspace: cwd, mount: cwd, env: {}, network: "none" };
  const session = await ContainerSession.open(
    docker,
    container ? { ...plan, container, mount: undefined } : plan,
    () => {},
  );
  return new ContainerOps(session, createLocalOps({ cwd }), new WorkspaceMap(cwd, session.mount));
}
const container = await containerOps(folder("container"));

/**
 * The backends measured against local: name and backend.
 * @type {[string, any][]}
 */
const REMOTES = [
  ["ssh", ssh],
  ["container", container],
];
/** @type {[string, any][]} */
const BACKENDS = [["local", local], ...REMOTES];

const tools = createFileTools({ ripgrep: true });
const context = (ops) => ({
  signal: new AbortController().signal,
  toolCallId: "bench",
  cwd: ops.cwd,
  ops,
  dataDir: join(sshd.dir, "data"),
  update() {},
});
const timed = (tool, input, ops) => async () => {
  const start = performance.now();
  const result = await tool.execute(input, context(ops));
  const elapsed = performance.now() - start;
  if (result.isError) throw new Error(`${tool.name} failed: ${JSON.stringify(result.content)}`);
  return elapsed;
};

const TEXT = "line of text\n".repeat(200);
for (const [, ops] of BACKENDS) await ops.writeFile("read-me.txt", TEXT);
let n = 0;
/** @type {[string, string, () => Promise<number>][]} */
const cases = [];
for (const [name, ops] of BACKENDS) {
  cases.push(["read", name, timed(tools.read, { path: "read-me.txt" }, ops)]);
  cases.push(["write", name, async () => timed(tools.write, { path: `w${n++ % 20}.txt`, content: TEXT }, ops)()]);
  const bash = await bashToolCase(ops, join(sshd.dir, "data"), "echo hi");
  cases.push(["bash echo", name, bash]);
  // As between a model's turns: the remote shell the next command takes was opened ahead and is ready.
  const warm = name === "local" ? bash : async () => (await ops.commandShellReady(), bash());
  cases.push(["bash echo, after a pause", name, warm]);
}
const samples = await interleaved(
  cases.map(([tool, name, run]) => [`${tool} ${name}`, run]),
  WARMUP,
  RUNS,
);
const medianOf = (tool, name) => median(samples[cases.findIndex((c) => c[0] === tool && c[1] === name)]);

/** Setup times: a new backend each time, its connection not shared with one already open. */
async function setupTimes(make) {
  const times = [];
  for (let i = 0; i < SETUPS; i++) {
    const start = performance.now();
    const ops = await make();
    times.push(ops.elapsed ?? performance.now() - start);
    await ops.close();
  }
  return median(times);
}
await ssh.close();
await container.close();
podman.cli(
  ["run", "-d", "--name", "attach-me", "--network", "none", "-v", `${container.cwd}:/src`, podman.image].concat([
    "/bin/sh",
    "-c",
    "trap 'exit 0' TERM; while sleep 1000 & wait $!; do :; done",
  ]),
);
const resolve = createRequire(import.meta.url).resolve;
/**
 * A container backend whose `close` first lets the exec it starts ahead for the first command get ready: Podman
 * holds a container's lock while it starts an exec, which would otherwise land in the next setup's time.
 */
const settled = async (made) => {
  const ops = await made;
  return { close: async () => (await ops.commandShellReady(), await ops.close()) };
};

/** The time a fresh node takes to require the backend's built code, after the contract's modules, by its clock. */
const loadingCode = async () => {
  const modules = ["@keel/extensions-api", "@keel/extensions-api/random-id", "@keel/extensions-api/paths"];
  const built = join(import.meta.dirname, "../plugins/ops-container/dist/create.cjs");
  const code =
    modules.map((name) => `require(${JSON.stringify(resolve(name))});`).join("") +
    `const t = performance.now(); require(${JSON.stringify(built)}); console.log(performance.now() - t);`;
  const run = spawnSync(process.execPath, ["-e", code], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`loading ${built} failed: ${run.stderr}`);
  return { close() {}, elapsed: Number(run.stdout) };
};
const SETUP = [
  ["local", await setupTimes(async () => createLocalOps({ cwd: local.cwd }))],
  ["ssh (connect, host key, login, helper, root)", await setupTimes(() => createSshOps(sshSettings(ssh.cwd)))],
  ["container (create from the image, start)", await setupTimes(() => settled(containerOps(container.cwd)))],
  ["container (attach to a running one)", await setupTimes(() => settled(containerOps(container.cwd, "attach-me")))],
  ["container backend's code, loaded (dockerode built in, without ssh2 and gRPC)", await setupTimes(loadingCode)],
];
local.close();
await sshd.stop();
await podman.stop();
rmSync(sshd.dir, { recursive: true, force: true });

const tools3 = ["read", "write", "bash echo", "bash echo, after a pause"];
printTable(`per tool call (${RUNS} runs each, interleaved, medians; ratios to local in the same run)`, [
  ["tool", ...BACKENDS.map(([name]) => name), ...REMOTES.map(([name]) => `${name} / local`)],
  ...tools3.map((tool) => [
    tool,
    ...BACKENDS.map(([name]) => ms(medianOf(tool, name))),
    ...REMOTES.map(([name]) => ratio(medianOf(tool, name), medianOf(tool, "local"))),
  ]),
]);
printTable(`setting a backend up (${SETUPS} times each, medians)`, [
  ["backend", "median"],
  ...SETUP.map(([name, time]) => [name, ms(time)]),
]);
