import { afterAll, beforeAll, expect, it } from "vitest";
import { startPodman, type Podman } from "../../../test/support/podman.ts";
import { tempFolder } from "../../../test/support/workspace.ts";
import { openContainerOps } from "./fixture.ts";

let podman: Podman;
beforeAll(async () => {
  const t = performance.now();
  podman = await startPodman();
  console.log("podman up", performance.now() - t);
});
afterAll(async () => {
  const t = performance.now();
  await podman?.stop();
  console.log("podman down", performance.now() - t);
});

it("smoke", async () => {
  const ws = tempFolder("keel-ws-");
  let t = performance.now();
  const ops = await openContainerOps(podman, ws.path);
  console.log("open", performance.now() - t, ops.session.shell, ops.cwd);
  await ops.writeFile("a.txt", "hello\n");
  t = performance.now();
  let out = "";
  const h = ops.spawn("cat a.txt; cat /etc/keel-image; echo err >&2; pwd; exit 3", {
    onData: (c) => (out += Buffer.from(c).toString()),
  });
  const exit = await h.exited;
  console.log("exec", performance.now() - t, exit, JSON.stringify(out), h.pid);
  t = performance.now();
  await h.kill();
  console.log("kill after exit", performance.now() - t);
  const bg = ops.spawn("sleep 100 & echo started", { onData: (c) => (out += Buffer.from(c).toString()) });
  console.log(await bg.exited);
  t = performance.now();
  await bg.kill();
  console.log("kill bg", performance.now() - t);
  t = performance.now();
  await ops.close();
  console.log("close", performance.now() - t);
  expect(podman.containers()).toEqual([]);
  ws.remove();
});
