/**
 * Commands: exit codes told apart from deaths by signal, stdout and stderr on one stream in the order written,
 * stdin at end of input unless fed, the working folder and environment asked for, no terminal, and output of
 * any size delivered whole (what the bash tool caps for the model and spills to a file).
 */
import { assert, assertNothingLeft, caught, start } from "./check.js";
import type { OpsCase } from "./types.js";

const numbered = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${i + 1}\n`).join("");

export const commandCases: OpsCase[] = [
  {
    name: "resolves exit codes",
    needs: ["processes"],
    async run(world) {
      const exit = (command: string) => start(world, command).handle.exited;
      assert.deepEqual(await exit("true"), { code: 0, signal: null });
      assert.deepEqual(await exit("exit 7"), { code: 7, signal: null });
      assert.deepEqual(await exit("false"), { code: 1, signal: null });
      assert.deepEqual(await exit("exit 255"), { code: 255, signal: null });
    },
  },
  {
    name: "resolves the signal when the shell was killed by one, told apart from exit 137 and exit 143",
    needs: ["processes", "signals"],
    async run(world) {
      const exit = (command: string) => start(world, command).handle.exited;
      assert.deepEqual(await exit("exit 137"), { code: 137, signal: null });
      assert.deepEqual(await exit("exit 143"), { code: 143, signal: null });
      assert.deepEqual(await exit("kill -KILL $$"), { code: null, signal: "SIGKILL" });
      assert.deepEqual(await exit("kill -TERM $$"), { code: null, signal: "SIGTERM" });
    },
  },
  {
    name: "puts stdout and stderr on one stream in the exact order they were written",
    needs: ["processes"],
    async run(world) {
      const { handle, out } = start(world, 'for i in $(seq 1 300); do echo "out $i"; echo "err $i" >&2; done');
      await handle.exited;
      const expected = Array.from({ length: 300 }, (_, i) => `out ${i + 1}\nerr ${i + 1}\n`).join("");
      assert.equal(out.text(), expected);
    },
  },
  {
    name: "runs the command text untouched through bash: quotes, no positional parameters, line numbers",
    needs: ["processes"],
    async run(world) {
      const quoted = start(world, `printf '%s|' "a b" '$HOME' "$#" "$BASH_VERSION" | cut -c1-15; echo`);
      await quoted.handle.exited;
      assert.match(quoted.out.text(), /^a b\|\$HOME\|0\|\d/);
      const syntax = start(world, "echo before\nif then");
      assert.equal((await syntax.handle.exited).code, 2);
      assert.match(syntax.out.text(), /^before\n.*line 3: syntax error/s);
    },
  },
  {
    name: "gives a command end of input at once, and no terminal to wait on",
    needs: ["processes"],
    async run(world) {
      const stdin = start(world, 'cat; read -r line || echo "eof"');
      assert.deepEqual(await stdin.handle.exited, { code: 0, signal: null });
      assert.equal(stdin.out.text(), "eof\n");
      const tty = start(world, "read -r answer < /dev/tty && echo read");
      assert.notEqual((await tty.handle.exited).code, 0);
      assert.doesNotMatch(tty.out.text(), /^read$/m);
    },
  },
  {
    name: "feeds stdin when given, and keeps it open for write() when asked",
    needs: ["processes"],
    async run(world) {
      const fed = start(world, "cat", { stdin: "one\ntwo\n" });
      await fed.handle.exited;
      assert.equal(fed.out.text(), "one\ntwo\n");
      const open = start(world, 'read -r a; echo "got $a"; read -r b; echo "got $b"', { keepStdinOpen: true });
      open.handle.write("first\n");
      await open.out.waitFor("got first");
      open.handle.write("second\n");
      assert.deepEqual(await open.handle.exited, { code: 0, signal: null });
      assert.equal(open.out.text(), "got first\ngot second\n");
    },
  },
  {
    name: "runs in the workspace, or the folder asked for, with the environment given over the backend's",
    needs: ["processes"],
    async run(world) {
      await world.files.mkdir("ws/run here");
      const here = start(world, "pwd");
      await here.handle.exited;
      assert.equal(here.out.text(), `${world.ops.cwd}\n`);
      const there = start(world, 'pwd; printf "%s|%s\\n" "$GREETING" "${PATH:+path}"', {
        cwd: "run here",
        env: { GREETING: "hello" },
      });
      assert.deepEqual(await there.handle.exited, { code: 0, signal: null });
      assert.equal(there.out.text(), `${world.ops.cwd}/run here\nhello|path\n`);
    },
  },
  {
    name: "fails to start in a working folder that does not exist, naming it",
    needs: ["processes"],
    async run(world) {
      const error = await caught(() => world.ops.spawn("true", { cwd: "missing-folder" }).exited);
      assert.match(error.message, /missing-folder/);
    },
  },
  {
    name: "delivers 6.9 MB of output whole and in order (seq 1 1000000)",
    needs: ["processes"],
    async run(world) {
      const { handle, out } = start(world, "seq 1 1000000");
      assert.deepEqual(await handle.exited, { code: 0, signal: null });
      assert.ok(out.bytes().equals(Buffer.from(numbered("", 1_000_000))), `got ${out.size()} bytes`);
    },
  },
  {
    name: "delivers a single 1 MB line whole",
    needs: ["processes"],
    async run(world) {
      const { handle, out } = start(world, "head -c 1048576 /dev/zero | tr '\\0' x; echo");
      await handle.exited;
      assert.equal(out.size(), 1048577);
      assert.ok(out.bytes().equals(Buffer.from(`${"x".repeat(1048576)}\n`)));
    },
  },
  {
    name: "keeps the output of twelve commands running at once apart",
    needs: ["processes"],
    async run(world) {
      const runs = Array.from({ length: 12 }, (_, n) =>
        start(world, `for i in $(seq 1 200); do echo "c${n} $i"; done`),
      );
      await Promise.all(runs.map((r) => r.handle.exited));
      runs.forEach((r, n) => assert.equal(r.out.text(), numbered(`c${n} `, 200), `command ${n}`));
      for (const r of runs) await assertNothingLeft(world, r);
    },
  },
];
