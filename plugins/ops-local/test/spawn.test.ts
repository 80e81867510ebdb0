/**
 * Starting a command, both ways the local backend can (a spawn from keel, the long-lived shell): one ordered
 * output pipe, stdin at end of input, exit on the process's exit rather than pipe close, exit codes told apart
 * from deaths by signal; then what only a spawn takes (stdin to feed) and errors for a bad working directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnProcess } from "../src/spawn.ts";
import { isAlive, outputCollector, printedPids } from "../../../test/support/processes.ts";
import { RUNNERS } from "./runners.ts";

const cwd = mkdtempSync(join(tmpdir(), "keel-spawn-"));
const env = { ...process.env } as Record<string, string>;
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe.each(RUNNERS)("starting a command through %s", (_name, start) => {
  function run(command: string) {
    const out = outputCollector();
    const handle = start(command, { cwd, env, onData: out.onData });
    return { handle, out };
  }

  it("interleaves stdout and stderr on one pipe in the exact order they were written", async () => {
    const { handle, out } = run('for i in $(seq 1 300); do echo "out $i"; echo "err $i" >&2; done');
    await handle.exited;
    const expected = Array.from({ length: 300 }, (_, i) => `out ${i + 1}\nerr ${i + 1}\n`).join("");
    expect(out.text()).toBe(expected);
  });

  it("resolves the exit code, and the signal when the process was killed by one", async () => {
    expect(await run("exit 7").handle.exited).toEqual({ code: 7, signal: null });
    expect(await run("kill -KILL $$").handle.exited).toEqual({ code: null, signal: "SIGKILL" });
  });

  it("tells `exit 137` apart from a death by SIGKILL, and `exit 143` from SIGTERM", async () => {
    expect(await run("exit 137").handle.exited).toEqual({ code: 137, signal: null });
    expect(await run("exit 143").handle.exited).toEqual({ code: 143, signal: null });
    expect(await run("kill -TERM $$").handle.exited).toEqual({ code: null, signal: "SIGTERM" });
  });

  it("reports the shell's own syntax errors in the output, with the command's line numbers", async () => {
    const { handle, out } = run("echo before\nif then");
    expect((await handle.exited).code).toBe(2);
    expect(out.text()).toMatch(/^before\n.*line 2: syntax error/s);
  });

  it("runs the command text untouched: quotes, $0, no stray positional parameters", async () => {
    const { handle, out } = run(`printf '%s|' "a b" '$HOME' "$#"; echo`);
    await handle.exited;
    expect(out.text()).toBe("a b|$HOME|0|\n");
  });

  it("gives a command that reads stdin an immediate end of input", async () => {
    const { handle, out } = run('cat; read -r line || echo "eof"');
    expect((await handle.exited).code).toBe(0);
    expect(out.text()).toBe("eof\n");
  });

  it("refuses write() when stdin was not kept open, saying how to get it", async () => {
    const { handle } = run("true");
    expect(() => handle.write("x")).toThrow(/stdin was closed at start.*keepStdinOpen/);
    await handle.exited;
  });

  it("resolves on the shell's exit while a background child still holds the pipe", async () => {
    const started = Date.now();
    const { handle, out } = run("sleep 1000 & echo pid=$!");
    expect(await handle.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(2000);
    const [sleeper] = printedPids(out.text());
    expect(isAlive(sleeper!)).toBe(true);
    await handle.kill();
    expect(isAlive(sleeper!)).toBe(false);
  });

  it("delivers a single 1 MB line whole", async () => {
    const { handle, out } = run("head -c 1048576 /dev/zero | tr '\\0' x; echo");
    await handle.exited;
    expect(out.bytes().length).toBe(1048577);
    expect(out.text().startsWith("xxx")).toBe(true);
  });

  it("runs in the given working directory and environment, with default signal handling", async () => {
    const out = outputCollector();
    // A SIGPIPE the parent ignored would stay ignored across exec, and `yes | head` would never end.
    const handle = start('pwd; echo "$KEEL_TEST_VALUE"; yes | head -n 1', {
      cwd,
      env: { ...env, KEEL_TEST_VALUE: "v1" },
      onData: out.onData,
    });
    expect(await handle.exited).toEqual({ code: 0, signal: null });
    expect(out.text()).toBe(`${cwd}\nv1\ny\n`);
  });

  it("keeps the output of two commands running at once apart", async () => {
    const a = run('for i in $(seq 1 200); do echo "a $i"; done');
    const b = run('for i in $(seq 1 200); do echo "b $i"; done');
    await Promise.all([a.handle.exited, b.handle.exited]);
    expect(a.out.text()).toBe(Array.from({ length: 200 }, (_, i) => `a ${i + 1}\n`).join(""));
    expect(b.out.text()).toBe(Array.from({ length: 200 }, (_, i) => `b ${i + 1}\n`).join(""));
  });
});

describe("spawnProcess", () => {
  function run(command: string, extra: { stdin?: string } = {}) {
    const out = outputCollector();
    const handle = spawnProcess(command, { cwd, env, onData: out.onData, ...extra });
    return { handle, out };
  }

  it("feeds `stdin` when given, then closes it", async () => {
    const { handle, out } = run("cat", { stdin: "one\ntwo\n" });
    await handle.exited;
    expect(out.text()).toBe("one\ntwo\n");
  });

  it("keeps stdin open for write() when asked", async () => {
    const out = outputCollector();
    const handle = spawnProcess('read -r a; echo "got $a"; read -r b; echo "got $b"', {
      cwd,
      env,
      onData: out.onData,
      keepStdinOpen: true,
    });
    handle.write("first\n");
    await out.waitFor("got first");
    handle.write("second\n");
    await handle.exited;
    expect(out.text()).toBe("got first\ngot second\n");
  });

  it("throws at once, naming the folder, when the working directory does not exist", () => {
    expect(() => spawnProcess("true", { cwd: join(cwd, "missing"), env })).toThrow(
      /working directory .*missing does not exist/,
    );
  });
});
