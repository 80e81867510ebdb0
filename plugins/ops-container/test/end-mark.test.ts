/**
 * The end mark on a command's stdout: taken out wherever the chunks split it, output around it kept byte for
 * byte, a NUL of the command's own passed on, and what was held back handed on when the stream ends without it.
 */
import { expect, it } from "vitest";
import { EndMark } from "../src/end-mark.ts";

const MARK = "\0keel-end-t1\n";

function run(chunks: string[]): { out: string; seen: boolean; flushed: string } {
  let out = "";
  let seen = false;
  const mark = new EndMark(
    "t1",
    (chunk) => (out += chunk.toString("latin1")),
    () => (seen = true),
  );
  for (const chunk of chunks) mark.push(Buffer.from(chunk, "latin1"));
  const before = out;
  mark.flush();
  return { out: before, seen, flushed: out.slice(before.length) };
}

it("takes the mark out wherever the chunks split it", () => {
  const whole = `output\n${MARK}after\n`;
  for (let cut = 0; cut <= whole.length; cut++) {
    for (let second = cut; second <= whole.length; second++) {
      const result = run([whole.slice(0, cut), whole.slice(cut, second), whole.slice(second)]);
      expect(result).toEqual({ out: "output\nafter\n", seen: true, flushed: "" });
    }
  }
});

it("passes on a command's own NUL bytes, and another command's mark", () => {
  expect(run(["a\0b", "\0keel-end-t2\n", "\0keel-e"])).toEqual({
    out: "a\0b\0keel-end-t2\n",
    seen: false,
    flushed: "\0keel-e",
  });
});
