/**
 * kill(), both ways a command starts: the whole tree goes — the group, background children, grandchildren that
 * left the group with setsid (even after their parent exited), and processes that ignore TERM — and nothing is
 * left behind.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { forkCount } from "../src/process-tree.ts";
import { members } from "../src/spawn.ts";
import { groupMembers, isAlive, outputCollector, printedPids } from "../../../test/support/processes.ts";
import { RUNNERS } from "./runners.ts";
import { until } from "../../../test/support/until.ts";

const cwd = mkdtempSync(join(tmpdir(), "keel-spawn-kill-"));
const env = { ...process.env } as Record<string, string>;
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** The tag of a spawn, from its leader's environment (a child's can read empty between fork and exec). */
function tagOf(leader: number): string {
  return readFileSync(`/proc/${leader}/environ`, "latin1").match(/KEEL_PROCESS_TAG=(\w+)/)![1]!;
}

describe.each(RUNNERS)("kill() of a command started through %s", (_name, spawnProcess) => {
  function start(command: string) {
    const out = outputCollector();
    const handle = spawnProcess(command, { cwd, env, onData: out.onData });
    return { handle, out };
  }

  it("kills the process group: the shell and every background child", async () => {
    const { handle, out } = start("sleep 1000 & echo pid=$!; sleep 1000 & echo pid=$!; echo ready; wait");
    await out.waitFor("ready");
    const pids = printedPids(out.text());
    await handle.kill();
    expect(await handle.exited).toMatchObject({ code: null });
    expect(pids.filter(isAlive)).toEqual([]);
    expect(groupMembers(handle.pid!)).toEqual([]);
  });

  it("kills a grandchild that left the group with setsid", async () => {
    const { handle, out } = start("setsid sh -c 'echo pid=$$; echo ready; exec sleep 1000' & wait");
    await out.waitFor("ready");
    const [grandchild] = printedPids(out.text());
    expect(groupMembers(handle.pid!)).not.toContain(grandchild);
    await handle.kill();
    expect(isAlive(grandchild!)).toBe(false);
  });

  it("kills a setsid grandchild that redirected its output and outlived its parent", async () => {
    const { handle, out } = start("(setsid sh -c 'exec sleep 1000' >/dev/null 2>&1 </dev/null & echo pid=$!)");
    await handle.exited;
    const [daemon] = printedPids(out.text());
    expect(isAlive(daemon!)).toBe(true);
    await handle.kill();
    expect(isAlive(daemon!)).toBe(false);
  });

  it("keeps killing a member it saw even when the next scans cannot tell it is one", async () => {
    // Mid-exec a process's environment reads empty, and after setsid nothing else ties it to the tree: here
    // TERM makes it exec into an untagged sleep, so only the pid the kill saw still says it is ours.
    const ready = join(cwd, `ready-${Date.now()}`);
    const script =
      `trap 'exec env -i sleep 1000' TERM; echo \\$\\$ >${ready}.tmp; mv ${ready}.tmp ${ready}; ` +
      "while :; do sleep 0.05; done";
    const { handle } = start(`(setsid sh -c "${script}" >/dev/null 2>&1 </dev/null &)`);
    await handle.exited;
    await until(() => existsSync(ready));
    const escaper = Number(readFileSync(ready, "utf8"));
    expect(isAlive(escaper)).toBe(true);
    await handle.kill(200);
    expect(isAlive(escaper)).toBe(false);
  });

  it("sends KILL after the grace period to a process that traps TERM", async () => {
    const { handle, out } = start("trap 'echo got-term' TERM; echo ready; while true; do sleep 0.05; done");
    await out.waitFor("ready");
    const started = Date.now();
    await handle.kill(300);
    const took = Date.now() - started;
    expect(await handle.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(2000);
    expect(groupMembers(handle.pid!)).toEqual([]);
  });

  it("returns quickly when the process already finished and left nothing", async () => {
    const { handle } = start("true");
    await handle.exited;
    const started = Date.now();
    await handle.kill();
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("kills the tree when the abort signal fires", async () => {
    const controller = new AbortController();
    const out = outputCollector();
    const handle = spawnProcess("sleep 1000 & echo pid=$!; echo ready; wait", {
      cwd,
      env,
      onData: out.onData,
      signal: controller.signal,
    });
    await out.waitFor("ready");
    const [child] = printedPids(out.text());
    controller.abort();
    expect((await handle.exited).signal).toBe("SIGTERM");
    await handle.kill(); // joins the kill the abort started
    expect(isAlive(child!)).toBe(false);
  });

  it("stops a `yes` flood", async () => {
    let bytes = 0;
    const handle = spawnProcess("yes", { cwd, env, onData: (c) => (bytes += c.length) });
    while (bytes < 1_000_000) await new Promise((r) => setImmediate(r));
    await handle.kill();
    expect((await handle.exited).signal).toBe("SIGTERM");
    expect(groupMembers(handle.pid!)).toEqual([]);
  });

  it("finds every member by its tag, and none once killed", async () => {
    const { handle, out } = start("sleep 1000 & echo pid=$!; echo ready; wait");
    await out.waitFor("ready");
    const [child] = printedPids(out.text());
    const tag = tagOf(handle.pid!);
    expect(members({ leader: handle.pid!, tag, since: 0 }, false)).toEqual(expect.arrayContaining([handle.pid, child]));
    await handle.kill();
    expect(members({ leader: handle.pid!, tag, since: 0 }, true)).toEqual([]);
  });

  it("looks below the shell's pid only when the pids may have wrapped since it started", async () => {
    const { handle, out } = start("setsid sleep 1000 & echo pid=$!; echo ready; wait");
    await out.waitFor("ready");
    const [child] = printedPids(out.text());
    const tag = tagOf(handle.pid!);
    // A shell "started" above the child: with few forks since, the child's lower pid cannot be one of its tree.
    const above = { leader: child! + 1, tag, since: 0 };
    // Unless the child's pid is so near pid_max that a few more forks could wrap past it: then every pid is read,
    // rightly, and there is nothing to tell apart (this container's pid_max is 32768 and its pids wrap often).
    const pidMax = Number(readFileSync("/proc/sys/kernel/pid_max", "latin1"));
    const listed = readdirSync("/proc").filter((name) => /^\d+$/.test(name)).length;
    if ((pidMax - above.leader) / 2 > listed + 1000)
      expect(members({ ...above, forks: forkCount() }, true)).not.toContain(child);
    // With the counter saying pids may have wrapped since, every process is read, so the child is found.
    expect(members({ ...above, forks: 0 }, true)).toContain(child);
    await handle.kill();
    expect(isAlive(child!)).toBe(false);
  });
});
