/**
 * Process trees: what the bash tool's timeouts, aborts, background processes and end-of-call cleanup rest on.
 * `exited` resolves when the shell exits even while a child still holds its output; `kill()` then stops the
 * whole tree (background children, a grandchild that left with setsid, one that ignores TERM and gets KILL
 * after the grace period); an abort signal does the same. Nothing the command started survives.
 */
import { assert, assertNothingLeft, start, until } from "./check.js";
import type { OpsCase } from "./types.js";

export const treeCases: OpsCase[] = [
  {
    name: "resolves when the shell exits though a background child holds its output; kill() then stops the child",
    needs: ["processes"],
    async run(world) {
      const started = start(world, "sleep 1000 & echo started");
      // A backend may end the child with the shell (a sandbox's pid namespace does); it need not.
      assert.deepEqual(await started.handle.exited, { code: 0, signal: null });
      await started.handle.kill(200);
      await assertNothingLeft(world, started);
    },
  },
  {
    name: "a timeout's kill() stops a running command, its background children and a setsid grandchild",
    needs: ["processes"],
    async run(world) {
      const started = start(
        world,
        "sleep 1000 & setsid sleep 1000 & nohup sleep 1000 >/dev/null 2>&1 & echo ready; wait",
      );
      await started.out.waitFor("ready");
      await until(
        async () => (await world.processesWith!("KEEL_CONFORMANCE_MARKER", started.marker)).length === 3,
        "its three children to be running",
      );
      await started.handle.kill(500);
      const exit = await started.handle.exited;
      assert.equal(exit.code, null);
      assert.ok(exit.signal, "killed by a signal");
      await assertNothingLeft(world, started);
    },
  },
  {
    name: "kills a setsid daemon that redirected its output and outlived its shell",
    needs: ["processes"],
    async run(world) {
      // The shell exits only once the daemon runs (with the marker in its environment).
      const started = start(
        world,
        "(setsid sh -c 'touch .daemon-$KEEL_CONFORMANCE_MARKER; exec sleep 1000' >/dev/null 2>&1 </dev/null &); " +
          "until [ -e .daemon-$KEEL_CONFORMANCE_MARKER ]; do sleep 0.01; done",
      );
      assert.deepEqual(await started.handle.exited, { code: 0, signal: null });
      await started.handle.kill(200);
      await assertNothingLeft(world, started);
    },
  },
  {
    name: "sends KILL after the grace period to a command that traps TERM",
    needs: ["processes"],
    async run(world) {
      const started = start(world, "trap 'echo got-term' TERM; echo ready; while true; do sleep 0.05; done");
      await started.out.waitFor("ready");
      await started.handle.kill(300);
      assert.equal((await started.handle.exited).code, null);
      await assertNothingLeft(world, started);
    },
  },
  {
    name: "kills the tree when the abort signal fires",
    needs: ["processes"],
    async run(world) {
      const controller = new AbortController();
      const started = start(world, "sleep 1000 & echo ready; wait", { signal: controller.signal });
      await started.out.waitFor("ready");
      controller.abort();
      assert.equal((await started.handle.exited).code, null);
      await started.handle.kill(200); // joins the kill the abort started
      await assertNothingLeft(world, started);
    },
  },
  {
    name: "stops a `yes` flood when killed",
    needs: ["processes"],
    async run(world) {
      const started = start(world, "yes");
      await until(async () => started.out.size() > 1_000_000, "a megabyte of output");
      await started.handle.kill(500);
      assert.equal((await started.handle.exited).code, null);
      await assertNothingLeft(world, started);
    },
  },
  {
    name: "runs a background process with stdin open until it is killed, with what it started",
    needs: ["processes"],
    async run(world) {
      const started = start(world, 'sleep 1000 & while read -r line; do echo "echo $line"; done', {
        keepStdinOpen: true,
      });
      started.handle.write("one\n");
      await started.out.waitFor("echo one");
      await started.handle.kill(200);
      assert.equal((await started.handle.exited).code, null);
      await assertNothingLeft(world, started);
    },
  },
  {
    name: "returns from kill() of a command that already finished and left nothing",
    needs: ["processes"],
    async run(world) {
      const started = start(world, "true");
      await started.handle.exited;
      await started.handle.kill();
      await assertNothingLeft(world, started);
    },
  },
];
