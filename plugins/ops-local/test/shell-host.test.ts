/**
 * The long-lived shell as the local backend uses it: each command starts clean (the folder and environment
 * keel gives it, nothing left from the last command), a command that kills or wedges the helper gets a clear
 * failure and the next command a new helper, a garbled channel is not trusted, and closing the backend takes
 * the helper and what it still runs down with it.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalOps } from "../src/local-ops.ts";
import type { HelperCommand } from "../src/helper-command.ts";
import { findPerl, ShellHost } from "../src/shell-host.ts";
import { isAlive, outputCollector, printedPids } from "../../../test/support/processes.ts";
import { until } from "../../../test/support/until.ts";
import { HELPER_PID, helperBackend, helperOf } from "./helper-probes.ts";

const { cwd, ops } = helperBackend("keel-shell-host-");

/** Runs `command` on the backend; resolves to its exit (or the error it failed with) and its output. */
async function run(command: string, options: { cwd?: string; env?: Record<string, string> } = {}) {
  const out = outputCollector();
  const handle = ops.spawn(command, { ...options, onData: out.onData });
  const exit = await handle.exited.catch((error: Error) => error);
  await handle.kill();
  return { exit, text: out.text(), handle };
}

/** The state letter of /proc/<pid>/stat (T: stopped). */
function stateOf(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
}

/** The parent pid of /proc/<pid>/stat. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

describe("the long-lived shell of the local backend", () => {
  it("runs each command in its own folder and environment: `cd` and `export` do not reach the next", async () => {
    const first = await run('cd /tmp; export KEEL_LEAK=1; echo "$PWD $KEEL_LEAK"; ' + HELPER_PID, {
      cwd: "sub",
      env: { ONLY_FIRST: "yes" },
    });
    expect(first.text).toMatch(/^\/tmp 1\n/);
    const second = await run('pwd; echo "${KEEL_LEAK-unset} ${ONLY_FIRST-unset}"; ' + HELPER_PID);
    expect(second.text).toMatch(new RegExp(`^${cwd}\nunset unset\n`));
    expect(helperOf(second.text)).toBe(helperOf(first.text)); // the same helper ran both
  });

  it("passes a command and an environment in any UTF-8 through intact (the request counts bytes)", async () => {
    const r = await run('printf "%s|%s" "日本語 😀" "$KEEL_WORD"; echo; echo after', { env: { KEEL_WORD: "ünïcödé" } });
    expect(r.text).toBe("日本語 😀|ünïcödé\nafter\n");
    expect((await run("echo next")).text).toBe("next\n"); // the helper read the request whole, and no more
  });

  it("refuses a command or a variable holding a NUL byte, every time, and runs the next command", async () => {
    for (let i = 0; i < 2; i++) {
      expect(() => ops.spawn("echo a\0b")).toThrow(/the command, its folder or its environment contains a NUL byte/);
      expect(() => ops.spawn("true", { env: { KEEL_NUL: "a\0b" } })).toThrow(/contains a NUL byte/);
    }
    expect((await run("echo fine")).text).toBe("fine\n");
  });

  it("kills what a command left running with & or nohup once it is killed after its exit", async () => {
    const r = await run("sleep 1000 & echo pid=$!; nohup sleep 1000 >/dev/null 2>&1 & echo pid=$!");
    expect(r.exit).toEqual({ code: 0, signal: null });
    const pids = printedPids(r.text);
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it("says at the shell's exit whether anything is left; an orphan is the helper's however it detached", async () => {
    const clean = await run("echo x; sleep 0 & wait");
    expect((clean.handle as HelperCommand).nothingLeft).toBe(true);
    const out = outputCollector();
    // setsid, and a parent that exits at once: without the subreaper the sleeper would be init's.
    const command = `${HELPER_PID}; (setsid sleep 1000 >/dev/null 2>&1 & echo pid=$!)`;
    const handle = ops.spawn(command, { onData: out.onData }) as HelperCommand;
    await handle.exited;
    expect(handle.nothingLeft).toBe(false);
    const [sleeper] = printedPids(out.text());
    expect(parentOf(sleeper!)).toBe(helperOf(out.text()));
    await handle.kill();
    expect(isAlive(sleeper!)).toBe(false);
  });

  it("fails a command that kills the helper, saying so, and runs the next one in a new helper", async () => {
    const before = helperOf((await run(HELPER_PID)).text);
    const broken = await run("echo pid=$$; sleep 1000 & echo pid=$!; kill -KILL $PPID; sleep 1000");
    expect(broken.exit).toBeInstanceOf(Error);
    expect((broken.exit as Error).message).toMatch(
      new RegExp(`The shell helper \\(perl, pid ${before}\\) ended while the command ran: it was killed by SIGKILL`),
    );
    expect(printedPids(broken.text).filter(isAlive)).toEqual([]);
    const next = await run(`${HELPER_PID}; exit 3`);
    expect(next.exit).toEqual({ code: 3, signal: null });
    expect(helperOf(next.text)).not.toBe(before);
  });

  it("does not trust a channel that carries something the helper would not send", async () => {
    // A stand-in for perl whose first helper answers nonsense; a command cannot write into the real channel
    // (a socket, which /proc/<pid>/fd/N does not open).
    const marker = join(cwd, "garbled-once");
    const perl = join(cwd, "garbling-perl");
    writeFileSync(
      perl,
      `#!/bin/sh\n[ -e '${marker}' ] && exec perl "$@"\n: > '${marker}'\n` +
        `printf 'H\\0\\0\\0\\0\\0\\0\\0\\0Qnonsense'; exec sleep 1000\n`,
    );
    chmodSync(perl, 0o755);
    const host = new ShellHost(perl);
    try {
      const broken = host.run("true", { cwd, env: {} });
      await expect(broken.exited).rejects.toThrow(/its output could not be read \(it sent a frame of \d+ bytes\)/);
      const out = outputCollector();
      const next = host.run("echo fine", { cwd, env: { PATH: process.env.PATH! }, onData: out.onData });
      expect(await next.exited).toEqual({ code: 0, signal: null });
      expect(out.text()).toBe("fine\n");
    } finally {
      host.close();
    }
  });

  it("gives up on a helper that stopped reporting, once the command it ran is killed", async () => {
    const first = outputCollector();
    // It stops the helper only once the test has seen its output, so the output is not held up with it.
    const go = join(cwd, "stop-now");
    const handle = ops.spawn(`${HELPER_PID}; until [ -e '${go}' ]; do sleep 0.01; done; kill -STOP $PPID; sleep 1000`, {
      onData: first.onData,
    });
    await first.waitFor("helper=");
    const helper = helperOf(first.text());
    writeFileSync(go, "");
    await until(() => stateOf(helper) === "T");
    const queued = ops.spawn("true"); // waits in the pipe of the stopped helper
    await handle.kill(100);
    await expect(handle.exited).rejects.toThrow(/did not report the start or the end of a killed command/);
    await expect(queued.exited).rejects.toThrow(/ended while the command ran/);
    expect(isAlive(helper)).toBe(false);
    const next = await run("echo again");
    expect(next.exit).toEqual({ code: 0, signal: null });
    expect(next.text).toBe("again\n");
  });

  it("ends with the backend: close() kills what the helper still runs, and the helper exits", async () => {
    const own = createLocalOps({ cwd });
    const out = outputCollector();
    const handle = own.spawn(`${HELPER_PID}; sleep 1000 & echo pid=$!; echo ready; wait`, { onData: out.onData });
    await out.waitFor("ready");
    const helper = helperOf(out.text());
    const [sleeper] = printedPids(out.text());
    own.close();
    expect((await handle.exited).signal).toBe("SIGKILL");
    await until(() => !isAlive(helper) && !isAlive(sleeper!));
  });

  it("fails a command whose shell cannot start, saying why, whether the helper waits for its exec or not", async () => {
    // A `bash` whose interpreter does not exist: its exec fails with ENOENT, after the fork.
    const broken = join(cwd, "broken-shell");
    mkdirSync(broken);
    writeFileSync(join(broken, "bash"), "#!/no/such/interpreter\n");
    chmodSync(join(broken, "bash"), 0o755);
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
    for (const execWait of [undefined, 0]) {
      const host = new ShellHost(findPerl(), undefined, { execWait });
      // Twice: the second comes after the helper tried to make a spare of that shell, which cannot start either.
      for (let i = 0; i < 2; i++) {
        const handle = host.run("echo never", { cwd, env: { PATH: broken } });
        await expect(handle.exited).rejects.toThrow(
          /^Could not start the shell: cannot run .*broken-shell\/bash: No such file or directory\.$/,
        );
      }
      const gone = host.run("echo never", { cwd: join(cwd, "no-such-folder"), env });
      await expect(gone.exited).rejects.toThrow(/^Could not start the shell: cannot enter the working folder: No such/);
      const out = outputCollector();
      const fine = host.run("echo fine", { cwd, env, onData: out.onData });
      expect(await fine.exited).toEqual({ code: 0, signal: null });
      expect(out.text()).toBe("fine\n");
      host.close();
    }
  });

  it("falls back to spawning when there is no perl to run the helper with", () => {
    const host = new ShellHost(undefined);
    expect(host.available).toBe(false);
    expect(host.unavailable).toMatch(/perl was not found/);
  });

  it("gives up on a helper that cannot start, after failing the commands it was given", async () => {
    const told: string[] = [];
    const host = new ShellHost(join(cwd, "no-such-perl"), (why) => told.push(why));
    for (let i = 0; i < 2; i++) {
      const handle = host.run("true", { cwd, env: {} });
      await expect(handle.exited).rejects.toThrow(/it could not start: spawn .*no-such-perl ENOENT/);
    }
    expect(host.available).toBe(false);
    expect(told).toEqual([expect.stringMatching(/^the shell helper failed to start 2 times \(it could not start/)]);
  });
});
