/**
 * The spare shell of the long-lived helper: once a command has ended (or has run a while) it forks the next
 * command's shell ahead of it, and a request runs there only when the shell, the whole environment and the very
 * folder match; otherwise the spare is killed and the command forked as always. A command can tell which it got
 * from its own command line: a forked shell's carries the command's text, a spare's only the wrapper that waited
 * for it.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ProcessHandle } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import type { HelperCommand } from "../src/helper-command.ts";
import { createLocalOps } from "../src/local-ops.ts";
import { HELPER_PID, helperBackend, helperOf, sparesOf, spareOf } from "./helper-probes.ts";
import { findPerl, ShellHost } from "../src/shell-host.ts";
import { isAlive, outputCollector } from "../../../test/support/processes.ts";
import { until } from "../../../test/support/until.ts";

const { cwd, ops } = helperBackend("keel-spare-shell-");

type Start = (command: string, onData: (chunk: Uint8Array) => void) => ProcessHandle;

/** Runs `command` through `start`; resolves to its exit (or the error it failed with), its output and handle. */
async function runWith(start: Start, command: string) {
  const out = outputCollector();
  const handle = start(command, out.onData) as HelperCommand;
  const exit = await handle.exited.catch((error: Error) => error);
  await handle.kill();
  return { exit, text: out.text(), handle };
}

/** Runs `command` on the backend, in `options.cwd` (a workspace path) with `options.env` added. */
function run(command: string, options: { cwd?: string; env?: Record<string, string> } = {}) {
  return runWith((text, onData) => ops.spawn(text, { ...options, onData }), command);
}

/** Runs a first command with `options`, then waits for the spare the helper forks after it. */
async function withSpare(options: { cwd?: string; env?: Record<string, string> } = {}) {
  const helper = helperOf((await run(HELPER_PID, options)).text);
  return { helper, spare: await spareOf(helper) };
}

/** Prints the command's pid, and `forked` when its shell was forked for it (its command line holds this text). */
const WHICH = 'echo pid=$$; tr "\\0" " " </proc/$$/cmdline | grep -q "eval.*: WHICH" && echo forked; : WHICH';

describe("the spare shell of the long-lived helper", () => {
  it("runs the next command in the shell it forked with the last one, before the request came", async () => {
    const { spare } = await withSpare();
    const next = await run(WHICH);
    expect(next.text).toBe(`pid=${spare}\n`);
    expect(next.handle.pid).toBe(spare);
  });

  it("runs a command as a forked shell does: $0, $#, $LINENO, $_, errors and their order, exit codes", async () => {
    const env = { ...process.env } as Record<string, string>;
    const forking = new ShellHost(findPerl(), undefined, { spares: false });
    const spares = new ShellHost(findPerl());
    const on =
      (host: ShellHost): Start =>
      (command, onData) =>
        host.run(command, { cwd, env, onData });
    try {
      const helper = helperOf((await runWith(on(spares), HELPER_PID)).text);
      for (const command of [
        'echo "$0 $# [$*]"',
        "echo $LINENO\n\n  echo $LINENO",
        "echo before\nif then",
        "echo before\nnosuch_command_x arg; echo after $?",
        'echo "$_"',
        'echo "${REPLY-unset} $SECONDS"',
        'printf "%s|" "日本語 😀" "a\\\\b" "  lead "; echo',
        'cat; read -r line || echo "eof"',
        "f() { echo ${BASH_LINENO[*]} $LINENO; caller; }; f",
        "exit 7",
        "kill -TERM $$",
        "(",
      ]) {
        const forked = await runWith(on(forking), command);
        const spare = await spareOf(helper);
        const spared = await runWith(on(spares), command);
        expect(spared.handle.pid).toBe(spare);
        expect({ command, text: spared.text, exit: spared.exit }).toEqual({
          command,
          text: forked.text,
          exit: forked.exit,
        });
      }
    } finally {
      forking.close();
      spares.close();
    }
  });

  it("forks anew for a changed environment or folder, and kills the spare it did not use", async () => {
    const { helper, spare } = await withSpare();
    const other = await run(`${WHICH}; echo "$KEEL_NEW"`, { env: { KEEL_NEW: "yes" } });
    expect(other.text).toMatch(/^pid=\d+\nforked\nyes\n$/);
    await until(() => !isAlive(spare));
    const madeForOther = await spareOf(helper);
    const back = await run(`${WHICH}; echo "\${KEEL_NEW-unset}"; pwd`, { cwd: "sub" });
    expect(back.text).toBe(`pid=${back.handle.pid}\nforked\nunset\n${cwd}/sub\n`);
    await until(() => !isAlive(madeForOther));
    const madeInSub = await spareOf(helper);
    const home = await run(`${WHICH}; pwd`);
    expect(home.text).toBe(`pid=${home.handle.pid}\nforked\n${cwd}\n`);
    await until(() => !isAlive(madeInSub));
  });

  it("never enters a folder through the spare once another folder has taken its path", async () => {
    const place = join(cwd, "replaced");
    mkdirSync(place);
    writeFileSync(join(place, "old"), "");
    const { spare } = await withSpare({ cwd: "replaced" });
    renameSync(place, `${place}-gone`);
    mkdirSync(place);
    writeFileSync(join(place, "new"), "");
    const r = await run(`${WHICH}; ls; pwd -P`, { cwd: "replaced" });
    expect(r.text).toBe(`pid=${r.handle.pid}\nforked\nnew\n${place}\n`);
    expect(r.handle.pid).not.toBe(spare);
  });

  it("gives a command in a renamed folder the folder's new path as $PWD", async () => {
    mkdirSync(join(cwd, "before"));
    await withSpare({ cwd: "before" });
    renameSync(join(cwd, "before"), join(cwd, "after"));
    const r = await run('echo "$PWD"', { cwd: "after" });
    expect(r.text).toBe(`${cwd}/after\n`);
  });

  it("forks when its spare was killed, and makes a new spare after", async () => {
    const { helper, spare } = await withSpare();
    process.kill(spare, "SIGKILL");
    await until(() => sparesOf(helper).length === 0); // dead: reaped, or a zombie, whose pipe says EPIPE
    const r = await run(WHICH);
    expect(r.exit).toEqual({ code: 0, signal: null });
    expect(r.text).toBe(`pid=${r.handle.pid}\nforked\n`);
    expect(await spareOf(helper)).not.toBe(spare);
  });

  it("forks the next spare once a quick command has exited, not while it runs", async () => {
    // Without the rule for long commands (a spare 50 ms into one), which a loaded machine's "quick" command met.
    const host = new ShellHost(findPerl(), undefined, { idleSpare: false });
    const env = { ...process.env } as Record<string, string>;
    const start: Start = (command, onData) => host.run(command, { cwd, env, onData });
    try {
      const helper = helperOf((await runWith(start, HELPER_PID)).text);
      const spare = await spareOf(helper);
      // The helper's children as the command ends (its own shell among them), not pids compared: they wrap.
      const r = await runWith(start, `${WHICH}; echo children=$(cat /proc/$PPID/task/$PPID/children)`);
      expect(r.text).toMatch(new RegExp(`^pid=${spare}\nchildren=[\\d ]+\n$`));
      const children = /children=(.*)/.exec(r.text)![1]!.trim().split(" ").map(Number);
      expect(children).toContain(spare);
      expect(children).not.toContain(await spareOf(helper));
    } finally {
      host.close();
    }
  });

  it("forks the next spare once a quick command's exit is out, while another command runs and prints", async () => {
    const { helper, spare } = await withSpare();
    const go = join(cwd, "go-chatty");
    const chatty = run(`until [ -e '${go}' ]; do echo tick; sleep 0.005; done`);
    try {
      await until(() => !sparesOf(helper).includes(spare)); // the chatty command took it
      const quick = await run(WHICH); // forked (or in a spare, had the helper found 50 ms with nothing to do)
      expect(quick.exit).toEqual({ code: 0, signal: null });
      expect(await spareOf(helper)).not.toBe(quick.handle.pid); // made after it, the chatty one still printing
    } finally {
      writeFileSync(go, "");
    }
    expect((await chatty).exit).toEqual({ code: 0, signal: null });
  });

  it("forks the next spare while a long command still runs, once nothing happened for a while", async () => {
    const { helper, spare } = await withSpare();
    const go = join(cwd, "go-once");
    const first = run(`until [ -e '${go}' ]; do sleep 0.01; done; ${WHICH}`);
    await until(() => !sparesOf(helper).includes(spare)); // it read the first command
    const next = await spareOf(helper); // not made until the first ends, before
    expect(next).not.toBe(spare);
    writeFileSync(go, "");
    expect((await first).text).toBe(`pid=${spare}\n`);
    expect((await run(WHICH)).text).toBe(`pid=${next}\n`);
  });

  it("gives concurrent commands a spare each, and counts no spare as left by a command", async () => {
    const { helper, spare } = await withSpare();
    const go = join(cwd, "go");
    const first = run(`until [ -e '${go}' ]; do sleep 0.01; done; ${WHICH}`);
    await until(() => !sparesOf(helper).includes(spare));
    const madeWithFirst = await spareOf(helper);
    const second = await run(WHICH);
    expect(second.text).toBe(`pid=${madeWithFirst}\n`);
    expect(second.handle.nothingLeft).toBe(true);
    expect(await spareOf(helper)).not.toBe(madeWithFirst); // made with the second, while the first still runs
    writeFileSync(go, "");
    const done = await first;
    expect(done.text).toBe(`pid=${spare}\n`);
    expect(done.handle.nothingLeft).toBe(true);
  });

  it("runs a command of up to 4095 bytes in the spare and forks for a longer one", async () => {
    const { helper, spare } = await withSpare();
    const padded = (bytes: number) => `${WHICH} ${"x".repeat(bytes - WHICH.length - 1)}`;
    expect((await run(padded(4095))).text).toBe(`pid=${spare}\n`);
    const next = await spareOf(helper);
    const long = await run(padded(4096));
    expect(long.text).toBe(`pid=${long.handle.pid}\nforked\n`);
    await until(() => !isAlive(next));
  });

  it("makes no spare from an environment that bash acts on before the command (BASH_ENV, SHELLOPTS)", async () => {
    writeFileSync(join(cwd, "bash-env"), "echo sourced\n");
    const sourcing = { BASH_ENV: join(cwd, "bash-env") };
    await run("true", { env: sourcing });
    expect((await run(WHICH, { env: sourcing })).text).toMatch(/^sourced\npid=\d+\nforked\n$/);
    const tracing = { SHELLOPTS: "xtrace" };
    await run("true", { env: tracing });
    expect((await run(WHICH, { env: tracing })).text).toContain("\nforked\n");
  });

  it("ends its spare with the backend, reaped", async () => {
    const own = createLocalOps({ cwd });
    const out = outputCollector();
    await own.spawn(HELPER_PID, { onData: out.onData }).exited;
    const helper = helperOf(out.text());
    const spare = await spareOf(helper);
    own.close();
    // Gone, not a zombie: the helper reaps it before it exits (this container's init reaps no orphan).
    await until(() => !existsSync(`/proc/${spare}`) && !isAlive(helper));
  });
});
