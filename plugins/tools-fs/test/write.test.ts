import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../../test/support/workspace.ts";
import { backends, type Env, readText } from "./backends.ts";

describe.each(backends)("write ($name)", (backend) => {
  let env: Env;
  beforeEach(() => {
    env = backend.setup();
  });
  afterEach(() => env.cleanup());
  const write = (input: unknown) => callTool(env.tools.write, input, env.ctx);

  it("creates a file and its missing parent folders", async () => {
    const out = await write({ path: "deep/er/new.txt", content: "hello\n" });
    expect(out).toMatchObject({ text: "Created deep/er/new.txt (6 B).", isError: false });
    expect(await readText(env.ops, "deep/er/new.txt")).toBe("hello\n");
  });

  it("replaces an existing file's whole content", async () => {
    await env.seed({ "a.txt": "old content that is longer" });
    expect((await write({ path: "a.txt", content: "new" })).text).toBe("Replaced a.txt (3 B).");
    expect(await readText(env.ops, "a.txt")).toBe("new");
  });

  it("leaves no temp file beside the target", async () => {
    await write({ path: "dir/a.txt", content: "x" });
    await write({ path: "dir/a.txt", content: "y" });
    expect((await env.ops.list("dir")).map((entry) => entry.name)).toEqual(["a.txt"]);
  });

  it("writes text with unicode byte-exact", async () => {
    const content = "naïve ☃ 𝄞\r\nline two";
    await write({ path: "u.txt", content });
    expect(await readText(env.ops, "u.txt")).toBe(content);
  });

  it("says when the file it replaced was not valid UTF-8", async () => {
    await env.seed({ "latin1.txt": Buffer.from("caf\xe9\n", "latin1"), "plain.txt": "caf\u00e9\n" });
    expect((await write({ path: "latin1.txt", content: "caf\u00e9\n" })).text).toBe(
      "Replaced latin1.txt (6 B). The file it replaced was not valid UTF-8 (Latin-1 or another " +
        "encoding); it is now UTF-8.",
    );
    expect((await write({ path: "plain.txt", content: "tea\n" })).text).toBe("Replaced plain.txt (4 B).");
  });

  it("says when the content held unpaired surrogates, written as U+FFFD", async () => {
    const out = await write({ path: "odd.txt", content: "a\ud800b" });
    expect(out.text).toBe(
      "Created odd.txt (5 B). The content held unpaired UTF-16 surrogates, which UTF-8 cannot hold; " +
        "each was written as U+FFFD.",
    );
    expect(await readText(env.ops, "odd.txt")).toBe("a\uFFFDb");
  });

  it("refuses to write over a folder", async () => {
    await env.ops.mkdir("src");
    expect(await write({ path: "src", content: "x" })).toEqual({
      text: "src is a folder; give the path of a file to write.",
      isError: true,
    });
  });

  it("refuses a path outside the workspace and writes nothing", async () => {
    const out = await write({ path: "../escape.txt", content: "x" });
    expect(out.isError).toBe(true);
    expect(out.text).toBe(
      `Path refused: "../escape.txt": it lies outside the workspace ${env.ops.cwd}; use a path inside the workspace`,
    );
  });

  it("serialises parallel writes to one file: the file ends as one whole write", async () => {
    const contents = Array.from({ length: 8 }, (_, i) => `${i}`.repeat(10_000));
    await Promise.all(contents.map((content) => write({ path: "race.txt", content })));
    expect(contents).toContain(await readText(env.ops, "race.txt"));
  });
});
