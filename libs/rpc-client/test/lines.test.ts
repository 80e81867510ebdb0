/** The LF-only line splitter: U+2028/U+2029 stay inside a line, and a character split across chunks is whole. */
import { describe, expect, it } from "vitest";
import { LineSplitter } from "../src/lines.ts";

describe("LineSplitter", () => {
  it("ends lines at LF only, keeping U+2028 and U+2029 inside them", () => {
    const lines = new LineSplitter();
    expect(lines.push('{"a":"x\u2028y\u2029z"}\n{"b":1}\n')).toEqual(['{"a":"x\u2028y\u2029z"}', '{"b":1}']);
  });

  it("joins a line and a multi-byte character split across chunks", () => {
    const bytes = Buffer.from('{"text":"é\u2028"}\n', "utf8");
    const lines = new LineSplitter();
    const out: string[] = [];
    for (let i = 0; i < bytes.length; i++) out.push(...lines.push(bytes.subarray(i, i + 1)));
    expect(out).toEqual(['{"text":"é\u2028"}']);
  });

  it("hands back a last line without LF at the end of the stream", () => {
    const lines = new LineSplitter();
    expect(lines.push("one\ntwo")).toEqual(["one"]);
    expect(lines.end()).toBe("two");
    expect(lines.end()).toBeUndefined();
  });
});
