// The container backend (plugins/ops-container) against a private Podman (test/support/podman.ts: runc,
// cgroupfs, the Docker API on a socket in a temp folder, a busybox+bash image built here):
// - per tool call, through the real tools: `read` and `write` of a small file and `bash({ command: "echo hi" })`,
//   on the container backend as ratios to the local backend over the same workspace in the same run (interleaved,
//   medians); bash both back to back and after a 300 ms pause, as after a model's answer, which lets the exec
//   started ahead for the next command (src/spare.ts) be ready;
// - setting up: starting a container from the image (create, start) and removing it, attaching to a running one,
//   and loading the backend's built code in a fresh node (run `npm run build` first), against loading dockerode
//   from node_modules (ssh2 and gRPC with it), each over a node that loaded only the contract's modules.
// CONTAINER_BENCH_RUNS sets the number of timed runs per tool case (setup cases run a fifth as often).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { bashToolCase, importSource, interleaved, median, ms, printTable, ratio, timeProcess } from "./lib.mjs";

/** @type {typeof import("../test/support/podman.ts")} */
const { startPodman } = await importSource("test/support/podman.ts");
/** @type {typeof import("../plugins/ops-local/src/local-ops.ts")} */
const { createLocalOps } = await importSource("plugins/ops-local/src/local-ops.ts");
/** @type {typeof import("../plugins/tools-fs/src/tools.ts")} */
const { createFileTools } = await importSource("plugins/tools-fs/src/tools.ts");
/** @type {typeof import("../plugins/ops-container/src/container.ts")} */
const { ContainerSession } = await importSource("plugins/ops-container/src/container.ts");
/** @type {typeof import("../plugins/ops-container/src/container-ops.ts")} */
const { ContainerOps } = await importSource("plugins/ops-container/src/container-ops.ts");
/** @type {typeof import("../plugins/ops-container/src/engine.ts")} */
const { connectEngine } = await importSource("plugins/ops-container/src/engine.ts");
/** @type {typeof import("../plugins/ops-container/src/workspace-map.ts")} */
const { WorkspaceMap } = await importSource("plugins/ops-container/src/workspace-map.ts");

const RUNS = Number(process.env.CONTAINER_BENCH_RUNS ?? 50);
const SETUP_RUNS = Math.max(3, Math.round(RUNS / 5));
const podman = await startPodman();
const root = join(podman.socket, "..", "bench");
const cwd = join(root, "workspace");
mkdirSync(cwd, { recursive: true });
writeFileSync(join(cwd, "small.txt"), "a line of text\n".repeat(40));
const docker = await connectEngine(podman.socket);
const plan = { image: podman.image, workspace: cwd, mount: cwd, env: {}, network: "none" };

const local = createLocalOps({ cwd });
const session = await ContainerSession.open(docker, plan, () => {});
const container = new ContainerOps(session, createLocalOps({ cwd }), new WorkspaceMap(cwd, session.mount));
const tools = createFileTools({ ripgrep: false });

/** A case timing one call of `tool` with `input` on `ops`. */
function toolCase(tool, ops, input) {
  const ctx = { signal: new AbortController().signal, toolCallId: "bench", cwd: ops.cwd, ops, dataDir: root };
  return async () => {
    const start = performance.now();
    const result = await tool.execute(tool.parameters.parse(input()), /** @type {any} */ (ctx));
    if (result.isError) throw new Error(JSON.stringify(result.content));
    return performance.now() - start;
  };
}

/**
 * `run` after an untimed pause of PAUSE_MS, as when a model answers between two calls: back to back, a command
 * in the container cannot use the exec the backend starts ahead for the next one (it is still starting).
 */
const PAUSE_MS = 300;
const afterPause = (run) => async () => {
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  return run();
};

let writes = 0;
const writeInput = () => ({ path: `out/w${writes++ % 10}.txt`, content: "y".repeat(500) });
const readInput = () => ({ path: "small.txt" });
/** @type {[string, () => Promise<number>][]} */
const perCall = [
  ["read, local", toolCase(tools.read, local, readInput)],
  ["read, container", toolCase(tools.read, container, readInput)],
  ["write, local", toolCase(tools.write, local, writeInput)],
  ["write, container", toolCase(tools.write, container, writeInput)],
  ["bash echo hi, back to back, local", await bashToolCase(local, join(root, "data"), "echo hi")],
  ["bash echo hi, back to back, container", await bashToolCase(container, join(root, "data"), "echo hi")],
  ["bash echo hi, after a model's answer, local", afterPause(await bashToolCase(local, join(root, "data"), "echo hi"))],
  [
    "bash echo hi, after a model's answer, container",
    afterPause(await bashToolCase(container, join(root, "data"), "echo hi")),
  ],
];
// Files and commands apart: a container exec's end (its socket closing) would otherwise land in the next file call.
const callSamples = [
  ...(await interleaved(perCall.slice(0, 4), 5, RUNS)),
  ...(await interleaved(perCall.slice(4, 6), 5, RUNS)),
  ...(await interleaved(perCall.slice(6), 2, Math.round(RUNS / 2))),
];

podman.cli([
  "run",
  "-d",
  "--name",
  "attach-me",
  "--network",
  "none",
  "-v",
  `${cwd}:/src`,
  podman.image,
  "/bin/sh",
  "-c",
  "trap 'exit 0' TERM; while sleep 1000 & wait $!; do :; done",
]);
const resolve = createRequire(import.meta.url).resolve;
// What the backend's built code needs from the host, loaded first in each of the three node runs below.
const hostModules = ["@keel/extensions-api", "@keel/extensions-api/random-id", "@keel/extensions-api/paths"]
  .map((name) => `require(${JSON.stringify(resolve(name))});`)
  .join("");
const nodeRun = (extra) => () => timeProcess(process.execPath, ["-e", hostModules + extra]);
const built = join(import.meta.dirname, "../plugins/ops-container/dist/create.cjs");
/** @type {[string, () => Promise<number>][]} */
const setup = [
  [
    "start a container from the image, and remove it",
    async () => {
      const start = performance.now();
      await (await ContainerSession.open(docker, plan, () => {})).close();
      return performance.now() - start;
    },
  ],
  [
    "attach to a running container",
    async () => {
      const start = performance.now();
      const attached = await ContainerSession.open(
        docker,
        { ...plan, container: "attach-me", mount: undefined },
        () => {},
      );
      const elapsed = performance.now() - start;
      await attached.close();
      return elapsed;
    },
  ],
  ["node: the contract's modules", nodeRun("")],
  ["node: + the backend's built code (dockerode built in)", nodeRun(`require(${JSON.stringify(built)})`)],
  ["node: + dockerode from node_modules", nodeRun(`require(${JSON.stringify(resolve("dockerode"))})`)],
];
const setupSamples = await interleaved(setup, 1, SETUP_RUNS);

await container.close();
local.close();
await podman.stop();
rmSync(root, { recursive: true, force: true });

printTable(`per tool call, container backend vs local (${RUNS} runs each, interleaved, medians)`, [
  ["call", "local", "container", "container / local"],
  ...[0, 2, 4, 6].map((k) => {
    const [name] = perCall[k];
    const [base, other] = [median(callSamples[k]), median(callSamples[k + 1])];
    return [name.replace(", local", ""), ms(base), ms(other), ratio(other, base)];
  }),
]);
const base = median(setupSamples[2]);
printTable(`setting up (${SETUP_RUNS} runs each, medians)`, [
  ["case", "median"],
  ...setup.slice(0, 2).map(([name], k) => [name, ms(median(setupSamples[k]))]),
  ["loading the backend's code, built (dockerode without ssh2 and gRPC)", ms(median(setupSamples[3]) - base)],
  ["loading dockerode from node_modules instead", ms(median(setupSamples[4]) - base)],
]);
