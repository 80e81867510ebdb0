/**
 * The container's life, against a real Podman: one started from the image gets the settings' user and limits and is
 * removed at the end with what runs in it (or not left at all when the session ends while it is made); an attached one
 * must run and mount the workspace, and at the end loses only the processes keel started there; a container a killed
 * keel left behind is removed by the next.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPodman, type Podman } from "../../../test/support/podman.ts";
import { outputCollector } from "../../../test/support/processes.ts";
import { tempFolder } from "../../../test/support/workspace.ts";
import { ContainerSession } from "../src/container.ts";
import { connectEngine } from "../src/engine.ts";
import { OWNER_LABEL } from "../src/orphans.ts";
import { openContainerOps } from "./fixture.ts";

const KEEP_ALIVE = ["/bin/sh", "-c", "trap 'exit 0' TERM; while sleep 1000 & wait $!; do :; done"];

let podman: Podman;
let ws: ReturnType<typeof tempFolder>;
beforeAll(async () => {
  podman = await startPodman();
  ws = tempFolder("keel-container-life-");
});
afterAll(async () => {
  await podman?.stop();
  ws?.remove();
});

/** Starts a container with podman itself; `args` go before the image. */
function runContainer(name: string, args: string[]): void {
  podman.cli(["run", "-d", "--name", name, "--network", "none", ...args, podman.image, ...KEEP_ALIVE]);
}

describe("a container started from the image", () => {
  it("runs commands as the user asked for, within the memory, CPU and process limits asked for", async () => {
    const settings = { user: "1000", memory: 64 * 1024 * 1024, cpus: 1.5, pids: 64 };
    const limited = await openContainerOps(podman, ws.path, settings);
    try {
      const out = outputCollector();
      // cgroup v2 names first, then v1's.
      const read = (v2: string, v1: string) => `cat /sys/fs/cgroup/${v2} 2>/dev/null || cat /sys/fs/cgroup/${v1}`;
      const command = [
        "id -u",
        read("memory.max", "memory/memory.limit_in_bytes"),
        read("pids.max", "pids/pids.max"),
        `${read("cpu.max", "cpu/cpu.cfs_quota_us")} | cut -d' ' -f1`,
      ].join("; ");
      expect(await limited.spawn(command, { onData: out.onData }).exited).toEqual({ code: 0, signal: null });
      expect(out.text()).toBe("1000\n67108864\n64\n150000\n");
    } finally {
      await limited.close();
    }
  });

  it("is removed at the end with what still runs in it, which ends as killed", async () => {
    const own = await openContainerOps(podman, ws.path);
    expect(podman.containers()).toContain(own.session.name);
    const out = outputCollector();
    const handle = own.spawn("echo ready; sleep 3501", { onData: out.onData });
    await out.waitFor("ready");
    await own.close();
    expect(podman.containers()).not.toContain(own.session.name);
    expect((await handle.exited).code).toBeNull();
  });

  it("is not left behind when the session ends while it is being made, whether pulling or starting", async () => {
    const docker = await connectEngine(podman.socket);
    const ended = AbortSignal.abort();
    const plan = { workspace: ws.path, mount: ws.path, env: {}, network: "none" };
    const log = () => {};
    await expect(
      ContainerSession.open(docker, { ...plan, image: "localhost/keel-missing:1" }, log, ended),
    ).rejects.toThrow("could not be pulled: the session ended first");
    await expect(ContainerSession.open(docker, { ...plan, image: podman.image }, log, ended)).rejects.toThrow(
      "does not start",
    );
    expect(podman.containers()).toEqual([]);
  });

  it("is removed by the next keel when the keel that started it died first", async () => {
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid!;
    runContainer("keel-orphan", ["--label", `${OWNER_LABEL}=${hostname()}:${gone}`]);
    runContainer("keel-alive", ["--label", `${OWNER_LABEL}=${hostname()}:${process.pid}`]);
    const next = await openContainerOps(podman, ws.path);
    await next.close();
    expect(podman.containers()).toEqual(["keel-alive"]);
    podman.cli(["rm", "-f", "-t", "0", "keel-alive"]);
  });
});

describe("an attached container", () => {
  it("works where it mounts the workspace, and at the end stops only what keel started there", async () => {
    runContainer("attached", ["-v", `${ws.path}:/src`]);
    podman.cli(["exec", "-d", "attached", "sleep", "3601"]);
    const ops = await openContainerOps(podman, ws.path, { container: "attached" });
    expect(ops.cwd).toBe("/src");
    const started = ops.spawn("sleep 3602 & echo started");
    await started.exited;
    await ops.close();
    const left = () => podman.cli(["exec", "attached", "ps", "-o", "args"]);
    expect(left()).toContain("sleep 3601");
    expect(left()).not.toContain("sleep 3602");
    // The exec it kept started for the next command ends too, once it reads the end of its input.
    while (left().includes("started_in=")) await new Promise((resolve) => setTimeout(resolve, 50));
    podman.cli(["rm", "-f", "-t", "0", "attached"]);
  });

  it("is refused when it does not mount the workspace, or does not run, saying what to do", async () => {
    runContainer("unmounted", []);
    await expect(openContainerOps(podman, ws.path, { container: "unmounted" })).rejects.toThrow(
      `The container unmounted does not bind-mount the workspace ${ws.path}`,
    );
    podman.cli(["stop", "-t", "0", "unmounted"]);
    await expect(openContainerOps(podman, ws.path, { container: "unmounted" })).rejects.toThrow(
      "The container unmounted is not running; start it (docker start unmounted)",
    );
    await expect(openContainerOps(podman, ws.path, { container: "nowhere" })).rejects.toThrow(
      'Cannot attach to the container "nowhere" ("ops-container.container")',
    );
    podman.cli(["rm", "-f", "unmounted"]);
  });
});
