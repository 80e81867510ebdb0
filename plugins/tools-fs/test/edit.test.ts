import type { Operations } from "@keel/extensions-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool, toolContext } from "../../../test/support/workspace.ts";
import { backends, type Env, readText } from "./backends.ts";

const SOURCE = [
  "function add(a, b) {",
  "  return a + b;",
  "}",
  "",
  "function sub(a, b) {",
  "  return a - b;",
  "}",
  "",
].join("\n");

describe.each(backends)("edit ($name)", (backend) => {
  let env: Env;
  beforeEach(() => {
    env = backend.setup();
  });
  afterEach(() => env.cleanup());
  const edit = (input: unknown) => callTool(env.tools.edit, input, env.ctx);

  it("replaces one exact snippet and returns a unified diff", async () => {
    await env.seed({ "math.js": SOURCE });
    const out = await edit({ path: "math.js", edits: [{ oldText: "return a - b;", newText: "return a - b - 0;" }] });
    expect(out.text).toBe(
      [
        "Edited math.js: 1 edit, +1 -1 lines.",
        "",
        "--- math.js",
        "+++ math.js",
        "@@ -3,5 +3,5 @@",
        " }",
        " ",
        " function sub(a, b) {",
        "-  return a - b;",
        "+  return a - b - 0;",
        " }",
        "",
      ].join("\n"),
    );
    expect(await readText(env.ops, "math.js")).toBe(SOURCE.replace("return a - b;", "return a - b - 0;"));
  });

  it("applies several edits together, each matched against the original text", async () => {
    await env.seed({ "math.js": SOURCE });
    const out = await edit({
      path: "math.js",
      edits: [
        { oldText: "function sub", newText: "function subtract" },
        { oldText: "function add", newText: "function plus" },
      ],
    });
    expect(out).toMatchObject({ isError: false, details: { added: 2, removed: 2, firstChangedLine: 1 } });
    expect(await readText(env.ops, "math.js")).toBe(
      SOURCE.replace("function add", "function plus").replace("function sub", "function subtract"),
    );
  });

  it("says a missing snippet matched 0 times and shows the nearest lines", async () => {
    await env.seed({ "math.js": SOURCE });
    const out = await edit({ path: "math.js", edits: [{ oldText: "return a * b;", newText: "x" }] });
    expect(out).toEqual({
      isError: true,
      text: [
        "No edits were applied to math.js.",
        "edit.oldText was not found in math.js (0 matches).",
        "The nearest text is at line 2:",
        "  1 | function add(a, b) {",
        "  2 |   return a + b;",
        "  3 | }",
      ].join("\n"),
    });
  });

  it("says when a snippet would match but for whitespace", async () => {
    await env.seed({ "math.js": SOURCE });
    const out = await edit({
      path: "math.js",
      edits: [{ oldText: "function add(a, b) {\nreturn a + b;", newText: "x" }],
    });
    expect(out.text).toContain(
      "It would match if whitespace were ignored: copy the exact indentation and line breaks from the file.",
    );
  });

  it("refuses a snippet that matches several times, listing where", async () => {
    await env.seed({ "math.js": SOURCE });
    const out = await edit({ path: "math.js", edits: [{ oldText: "(a, b) {", newText: "(x, y) {" }] });
    expect(out).toEqual({
      isError: true,
      text: [
        "No edits were applied to math.js.",
        "edit.oldText matches 2 times in math.js; it must match exactly once:",
        "  line 1: function add(a, b) {",
        "  line 5: function sub(a, b) {",
        "Add surrounding lines to oldText so that it matches one place only.",
      ].join("\n"),
    });
  });

  it("applies nothing when one of several edits fails, and names that one", async () => {
    await env.seed({ "math.js": SOURCE });
    const out = await edit({
      path: "math.js",
      edits: [
        { oldText: "function add", newText: "function plus" },
        { oldText: "no such text", newText: "y" },
      ],
    });
    expect(out.isError).toBe(true);
    expect(out.text).toContain("edits[1].oldText was not found in math.js (0 matches).");
    expect(await readText(env.ops, "math.js")).toBe(SOURCE);
  });

  it("refuses overlapping edits", async () => {
    await env.seed({ "math.js": SOURCE });
    const out = await edit({
      path: "math.js",
      edits: [
        { oldText: "function add(a, b)", newText: "x" },
        { oldText: "add(a, b) {\n  return", newText: "y" },
      ],
    });
    expect(out.text).toBe(
      "No edits were applied to math.js.\nedits[0] and edits[1] overlap (both change text at line " +
        "1); merge them into one edit.",
    );
  });

  it("refuses an empty oldText and an edit that changes nothing", async () => {
    await env.seed({ "math.js": SOURCE });
    const out = await edit({
      path: "math.js",
      edits: [
        { oldText: "", newText: "x" },
        { oldText: "}", newText: "}" },
      ],
    });
    expect(out.text).toBe(
      "No edits were applied to math.js.\n" +
        "edits[0].oldText is empty; it must quote text that is in math.js. To create or replace a " +
        "whole file, use write.\n\n" +
        "edits[1] changes nothing: oldText and newText are the same.",
    );
  });

  it("says a missing file was not found and that write creates files", async () => {
    expect(await edit({ path: "new.js", edits: [{ oldText: "a", newText: "b" }] })).toEqual({
      text: "File not found: new.js. To create a file, use write.",
      isError: true,
    });
  });

  it("refuses to edit a binary file", async () => {
    await env.seed({ "blob.bin": new Uint8Array([1, 0, 2]) });
    expect(await edit({ path: "blob.bin", edits: [{ oldText: "a", newText: "b" }] })).toEqual({
      text: "blob.bin is a binary file; edit changes text files only.",
      isError: true,
    });
  });

  it("keeps CRLF line endings when the model quotes text with LF", async () => {
    await env.seed({ "win.txt": "one\r\ntwo\r\nthree\r\n" });
    await edit({ path: "win.txt", edits: [{ oldText: "one\ntwo", newText: "one\n2" }] });
    expect(await readText(env.ops, "win.txt")).toBe("one\r\n2\r\nthree\r\n");
  });

  it("keeps a byte-order mark", async () => {
    await env.seed({ "bom.txt": new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("hello world\n")]) });
    await edit({ path: "bom.txt", edits: [{ oldText: "world", newText: "there" }] });
    expect(Buffer.from(await env.ops.readFile("bom.txt")).toString("utf8")).toBe("\uFEFFhello there\n");
  });

  it(
    "edits a Latin-1 file byte for byte: only the matched bytes change, and it says the file is " + "not UTF-8",
    async () => {
      const latin1 = Buffer.from("caf\xe9 au lait\nsecond line with na\xefve text\n", "latin1");
      await env.seed({ "latin1.txt": latin1 });
      const out = await edit({ path: "latin1.txt", edits: [{ oldText: "au lait", newText: "noir" }] });
      expect(out.isError).toBe(false);
      expect(out.text).toContain(
        "[latin1.txt is not valid UTF-8, so it was edited byte for byte: only the bytes of the matched text changed.]",
      );
      expect(out.text).toContain("-caf\uFFFD au lait\n+caf\uFFFD noir");
      expect(Buffer.from(await env.ops.readFile("latin1.txt"))).toEqual(
        Buffer.from("caf\xe9 noir\nsecond line with na\xefve text\n", "latin1"),
      );
    },
  );

  it("keeps one invalid UTF-8 sequence far from the edit as it was, and writes new text as UTF-8", async () => {
    const bytes = Buffer.concat([
      Buffer.from("header \u00e9t\u00e9\n"),
      Buffer.from([0xc3, 0x28, 0x0a]),
      Buffer.from("tail: old\n"),
    ]);
    await env.seed({ "broken.txt": bytes });
    const out = await edit({ path: "broken.txt", edits: [{ oldText: "old", newText: "neu \u00fc" }] });
    expect(out.isError).toBe(false);
    const expected = Buffer.concat([
      Buffer.from("header \u00e9t\u00e9\n"),
      Buffer.from([0xc3, 0x28, 0x0a]),
      Buffer.from("tail: neu \u00fc\n"),
    ]);
    expect(Buffer.from(await env.ops.readFile("broken.txt"))).toEqual(expected);
  });

  it("in a file that is not UTF-8, a snippet quoting U+FFFD misses and the error says why", async () => {
    await env.seed({ "latin1.txt": Buffer.from("caf\xe9 au lait\n", "latin1") });
    const out = await edit({ path: "latin1.txt", edits: [{ oldText: "caf\uFFFD", newText: "tea" }] });
    expect(out.isError).toBe(true);
    expect(out.text).toContain("edit.oldText was not found in latin1.txt (0 matches).");
    expect(out.text).toContain(
      "latin1.txt is not valid UTF-8 (it may be Latin-1 or another encoding, or hold a damaged byte)",
    );
    expect(Buffer.from(await env.ops.readFile("latin1.txt"))).toEqual(Buffer.from("caf\xe9 au lait\n", "latin1"));
  });

  it("serialises parallel edits to one file so none is lost", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `value_${i} = ${i}`);
    await env.seed({ "many.txt": `${lines.join("\n")}\n` });
    const results = await Promise.all(
      lines.map((line, i) => edit({ path: "many.txt", edits: [{ oldText: line, newText: `value_${i} = changed` }] })),
    );
    expect(results.every((result) => !result.isError)).toBe(true);
    expect(await readText(env.ops, "many.txt")).toBe(`${lines.map((_, i) => `value_${i} = changed`).join("\n")}\n`);
  });

  it("keeps a change made to the file between reading it and writing it", async () => {
    await env.seed({ "live.txt": "header\nbody\n" });
    // The backend as it is, except that right after the edit's first read something else appends a line.
    let reads = 0;
    const meddling: Operations = Object.assign(Object.create(env.ops) as Operations, {
      async readFile(path: string) {
        const bytes = await env.ops.readFile(path);
        if (++reads === 1) await env.ops.writeFile(path, "header\nbody\nappended elsewhere\n");
        return bytes;
      },
    });
    const out = await callTool(
      env.tools.edit,
      { path: "live.txt", edits: [{ oldText: "body", newText: "BODY" }] },
      toolContext(meddling),
    );
    expect(out.isError).toBe(false);
    expect(await readText(env.ops, "live.txt")).toBe("header\nBODY\nappended elsewhere\n");
  });

  it("fails without writing when a change made meanwhile removed the edited text", async () => {
    await env.seed({ "live.txt": "header\nbody\n" });
    let reads = 0;
    const meddling: Operations = Object.assign(Object.create(env.ops) as Operations, {
      async readFile(path: string) {
        const bytes = await env.ops.readFile(path);
        if (++reads === 1) await env.ops.writeFile(path, "rewritten\n");
        return bytes;
      },
    });
    const out = await callTool(
      env.tools.edit,
      { path: "live.txt", edits: [{ oldText: "body", newText: "BODY" }] },
      toolContext(meddling),
    );
    expect(out.isError).toBe(true);
    expect(
      out.text.startsWith("live.txt changed while it was being edited, and the edits no longer fit the new text."),
    ).toBe(true);
    expect(await readText(env.ops, "live.txt")).toBe("rewritten\n");
  });
});
