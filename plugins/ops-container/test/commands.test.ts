/**
 * Commands in the container, against a real Podman whose image has no bash (commands run on busybox's sh, the least an
 * image may have): the local backend's semantics (output in the order written, exit codes, stdin, environment, working
 * folder) and its process-tree guarantees (a kill takes what left the group or the session; what a command left running
 * is found after it exited). Processes are checked with podman's own `ps`, not through the backend.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PathAccessError } from "@keel/extensions-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPodman, type Podman } from "../../../test/support/podman.ts";
import { outputCollector } from "../../../test/support/processes.ts";
import { tempFolder } from "../../../test/support/workspace.ts";
import type { ContainerOps } from "../src/container-ops.ts";
import { openContainerOps } from "./fixture.ts";

let podman: Podman;
let ws: ReturnType<typeof tempFolder>;
let ops: ContainerOps;

beforeAll(async () => {
  podman = await startPodman({ bash: false });
  ws = tempFolder("keel-container-cmd-");
  mkdirSync(join(ws.path, "sub"));
  ops = await openContainerOps(podman, ws.path);
});
afterAll(async () => {
  await ops?.close();
  await podman?.stop();
  ws?.remove();
});

/** Command lines of the container's live processes, as podman's `ps` in it shows them. */
function processesIn(name: string): string[] {
  return podman
    .cli(["exec", name, "ps", "-o", "stat,args"])
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "" && !line.trim().startsWith("Z"));
}

async function run(command: string, options: Parameters<ContainerOps["spawn"]>[1] = {}) {
  const out = outputCollector();
  const handle = ops.spawn(command, { ...options, onData: out.onData });
  const exit = await handle.exited;
  return { exit, text: out.text(), handle };
}

describe("running a command", () => {
  it("runs it in the container's workspace, stdout and stderr in the order written, with its exit code", async () => {
    const { exit, text } = await run("echo one; echo two >&2; echo three; cat /etc/keel-image; pwd; exit 3");
    expect(text).toBe(`one\ntwo\nthree\nkeel test image\n${ws.path}\n`);
    expect(exit).toEqual({ code: 3, signal: null });
  });

  it("feeds stdin, or keeps it open for writes", async () => {
    expect((await run("cat; echo end", { stdin: "fed\n" })).text).toBe("fed\nend\n");
    const out = outputCollector();
    const handle = ops.spawn("read line; echo got $line", { keepStdinOpen: true, onData: out.onData });
    handle.write("typed\n");
    expect(await handle.exited).toEqual({ code: 0, signal: null });
    expect(out.text()).toBe("got typed\n");
    handle.write("after the end, dropped\n");
  });

  it("adds the environment asked for, and starts in the folder asked for", async () => {
    const { text } = await run('echo "$GREETING"; pwd', { env: { GREETING: "hi there" }, cwd: "sub" });
    expect(text).toBe(`hi there\n${ws.path}/sub\n`);
  });

  it("refuses a folder outside the workspace, or one that does not exist, before running anything", () => {
    expect(() => ops.spawn("true", { cwd: "/etc" })).toThrow(PathAccessError);
    expect(() => ops.spawn("true", { cwd: "missing" })).toThrow(
      `Cannot run "true": the working directory ${ws.path}/missing does not exist or is not a folder.`,
    );
  });

  it("tells the command's pid in the container once it runs", async () => {
    const { text, handle } = await run("echo $$");
    expect(handle.pid).toBe(Number(text.trim()));
  });
});

describe("the session's shell", () => {
  /** The pid of the process that started the command's subshell: the kept shell's, or 0 for an exec of its own. */
  const shellOf = async () => Number((await run("read -r s < /proc/$PPID/stat; set -- ${s##*) }; echo $2")).text);

  it("runs one command after another in the same shell, and lets it go once a command left processes", async () => {
    const first = await shellOf();
    expect(first).toBeGreaterThan(0);
    expect(await shellOf()).toBe(first);
    const { handle } = await run("sleep 3701 & echo left");
    await handle.kill();
    expect(await shellOf()).not.toBe(first);
  });

  it("carries nothing of one command over to the next: folder, variables", async () => {
    await run("cd sub; export LEFT_OVER=yes");
    expect((await run('pwd; echo "[$LEFT_OVER]"')).text).toBe(`${ws.path}\n[]\n`);
  });
});

describe("stopping a command", () => {
  it("kills the whole tree, also a child that started its own session, and says it was killed", async () => {
    const out = outputCollector();
    const handle = ops.spawn("setsid sleep 3101 & sleep 3102 & echo ready; wait", { onData: out.onData });
    await out.waitFor("ready");
    await handle.kill(200);
    expect(await handle.exited).toEqual({ code: null, signal: "SIGTERM" });
    expect(processesIn(ops.session.name).filter((p) => p.includes("sleep 310"))).toEqual([]);
  });

  it("finds what an exited command left running when killed after it", async () => {
    const { exit, handle } = await run("(sleep 3201 &); setsid sleep 3202 & echo started");
    expect(exit).toEqual({ code: 0, signal: null });
    expect(processesIn(ops.session.name).filter((p) => p.includes("sleep 320"))).toHaveLength(2);
    await handle.kill();
    expect(processesIn(ops.session.name).filter((p) => p.includes("sleep 320"))).toEqual([]);
  });

  it("kills on abort, even before the command has started", async () => {
    const controller = new AbortController();
    const handle = ops.spawn("sleep 3301", { signal: controller.signal });
    controller.abort();
    expect(await handle.exited).toMatchObject({ code: null });
    expect(processesIn(ops.session.name).filter((p) => p.includes("sleep 3301"))).toEqual([]);
  });

  it("TERMs first, and KILLs what ignores it after the grace", async () => {
    const out = outputCollector();
    const handle = ops.spawn("trap '' TERM; echo ready; sleep 3401; sleep 3401", { onData: out.onData });
    await out.waitFor("ready");
    await handle.kill(100);
    expect((await handle.exited).code).toBeNull();
    expect(processesIn(ops.session.name).filter((p) => p.includes("sleep 3401"))).toEqual([]);
  });
});
