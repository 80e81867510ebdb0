import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../../test/support/workspace.ts";
import { backends, type Env } from "./backends.ts";

const numbered = (count: number, width = 0) =>
  Array.from({ length: count }, (_, i) => `line ${i + 1}`.padEnd(width, "x")).join("\n") + "\n";
const PNG_1x1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

describe.each(backends)("read ($name)", (backend) => {
  let env: Env;
  beforeEach(() => {
    env = backend.setup();
  });
  afterEach(() => env.cleanup());
  const read = (input: unknown) => callTool(env.tools.read, input, env.ctx);

  it("returns a small file's lines, with no notes", async () => {
    await env.seed({ "notes.txt": "alpha\nbeta\n" });
    expect(await read({ path: "notes.txt" })).toMatchObject({ text: "alpha\nbeta", isError: false });
  });

  it("shows lines from a 1-based offset up to a limit and names the next offset", async () => {
    await env.seed({ "a.txt": numbered(10) });
    const out = await read({ path: "a.txt", offset: 3, limit: 2 });
    expect(out.text).toBe("line 3\nline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]");
  });

  it("stops at 2000 lines and says which offset continues", async () => {
    await env.seed({ "long.txt": numbered(2500) });
    const out = await read({ path: "long.txt" });
    const lines = out.text.split("\n");
    expect(lines[1999]).toBe("line 2000");
    expect(out.text.endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(true);
  });

  it("stops at 50 KB before 2000 lines when lines are long", async () => {
    await env.seed({ "wide.txt": numbered(1000, 100) });
    const out = await read({ path: "wide.txt" });
    // 100-byte lines joined by newlines: 506 fit in 51,200 bytes.
    expect(out.text.endsWith("\n\n[Showing lines 1-506 of 1000 (50.0 KB limit). Use offset=507 to continue.]")).toBe(
      true,
    );
    expect(out.text.split("\n")[505]).toBe("line 506".padEnd(100, "x"));
  });

  it("reads to the end from an offset without a note", async () => {
    await env.seed({ "a.txt": numbered(2500) });
    const out = await read({ path: "a.txt", offset: 2001 });
    expect(out.text.startsWith("line 2001\n")).toBe(true);
    expect(out.text.endsWith("line 2500")).toBe(true);
  });

  it("cuts a single line longer than 50 KB and says so", async () => {
    await env.seed({ "min.js": `${"x".repeat(60 * 1024)}\nsecond\n` });
    const out = await read({ path: "min.js" });
    expect(out.text.startsWith("x".repeat(50 * 1024) + "\n\n")).toBe(true);
    expect(out.text).toContain(
      "[Line 1 is 60.0 KB, over the 50.0 KB limit; only its start is shown. Use grep to find text " +
        "inside it. Use offset=2 to continue after it.]",
    );
  });

  it("cuts a long line of multi-byte characters on a character boundary", async () => {
    await env.seed({ "wide.txt": `${"é".repeat(40_000)}\n` });
    const out = await read({ path: "wide.txt" });
    expect(out.text.startsWith(`${"é".repeat(25_600)}\n\n[Line 1 is 78.1 KB`)).toBe(true);
  });

  it("pages through a file whose lines are each longer than the cap", async () => {
    await env.seed({ "min.js": `${"a".repeat(60_000)}\n${"b".repeat(60_000)}\n` });
    const out = await read({ path: "min.js", offset: 2 });
    expect(
      out.text.startsWith(
        `${"b".repeat(51_200)}\n\n[Line 2 is 58.6 KB, over the 50.0 KB limit; only its start is shown.`,
      ),
    ).toBe(true);
    expect(out.text).not.toContain("Use offset=3");
  });

  it("refuses an offset past the end with the file's length", async () => {
    await env.seed({ "a.txt": "1\n2\n3\n" });
    expect(await read({ path: "a.txt", offset: 10 })).toEqual({
      text: "offset 10 is past the end of a.txt, which has 3 lines. Use an offset from 1 to 3.",
      isError: true,
    });
  });

  it("refuses a zero offset before reading (offsets count from 1)", async () => {
    await env.seed({ "a.txt": "1\n" });
    const out = await read({ path: "a.txt", offset: 0 });
    expect(out.isError).toBe(true);
    expect(out.text).toContain("offset");
  });

  it("says when a file is not valid UTF-8, showing its bad bytes as U+FFFD", async () => {
    await env.seed({ "latin1.txt": Buffer.from("caf\xe9 au lait\n", "latin1") });
    const out = await read({ path: "latin1.txt" });
    expect(out.isError).toBe(false);
    expect(out.text).toBe(
      `caf\uFFFD au lait\n\n[latin1.txt is not valid UTF-8 (it may be Latin-1 or another encoding, ` +
        `or hold a damaged byte): bytes that are not UTF-8 are shown as U+FFFD "\uFFFD". edit ` +
        `changes only the bytes of the text it matches, so quote text beside them, not them.]`,
    );
  });

  it("refuses a binary file with its size", async () => {
    await env.seed({ "data.bin": new Uint8Array(1024).fill(7).fill(0, 10, 11) });
    expect(await read({ path: "data.bin" })).toEqual({
      text: "data.bin is a binary file (1.0 KB); read shows text files and png, jpeg, gif or webp images only.",
      isError: true,
    });
  });

  it("returns a png as image content", async () => {
    await env.seed({ "img/dot.png": PNG_1x1 });
    const out = await read({ path: "img/dot.png" });
    expect(out.result?.content).toEqual([
      { type: "text", text: `Image img/dot.png (image/png, ${PNG_1x1.length} B)` },
      { type: "image", mimeType: "image/png", data: PNG_1x1.toString("base64") },
    ]);
  });

  it("says a missing file was not found and how to look", async () => {
    expect(await read({ path: "nope.txt" })).toEqual({
      text: "File not found: nope.txt. Check the path with ls or find.",
      isError: true,
    });
  });

  it("says a folder is a folder", async () => {
    await env.ops.mkdir("src");
    expect(await read({ path: "src" })).toEqual({
      text: "src is a folder, not a file. Use ls to see what is in it.",
      isError: true,
    });
  });

  it("refuses a path outside the workspace", async () => {
    const out = await read({ path: "../secret.txt" });
    expect(out).toEqual({
      text:
        `Path refused: "../secret.txt": it lies outside the workspace ${env.ops.cwd}; use a ` +
        `path inside the workspace`,
      isError: true,
    });
  });

  it("accepts an absolute path inside the workspace and shows it relative", async () => {
    await env.seed({ "src/a.txt": "hi\n" });
    const out = await read({ path: `${env.ops.cwd}/src/a.txt`, offset: 1, limit: 1 });
    expect(out.details).toMatchObject({ path: "src/a.txt" });
  });

  it("says an empty file is empty", async () => {
    await env.seed({ "empty.txt": "" });
    expect((await read({ path: "empty.txt" })).text).toBe("[empty.txt is empty]");
  });
});
