import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../../test/support/workspace.ts";
import { backends, type Env } from "./backends.ts";

describe.each(backends)("ls ($name)", (backend) => {
  let env: Env;
  beforeEach(() => {
    env = backend.setup();
  });
  afterEach(() => env.cleanup());
  const ls = (input: unknown) => callTool(env.tools.ls, input, env.ctx);

  it("lists the workspace sorted by name, folders marked, hidden entries included", async () => {
    await env.seed({ "b.txt": "", "A.md": "", ".env": "", "src/x.ts": "", "lib/y.ts": "" });
    expect(await ls({})).toMatchObject({ text: [".env", "A.md", "b.txt", "lib/", "src/"].join("\n"), isError: false });
  });

  it("lists a subfolder", async () => {
    await env.seed({ "src/a.ts": "", "src/util/b.ts": "" });
    expect((await ls({ path: "src" })).text).toBe("a.ts\nutil/");
  });

  it("shows 500 entries by default and says how to see the rest", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`f${String(i).padStart(3, "0")}.txt`] = "";
    await env.seed(files);
    const out = await ls({});
    const lines = out.text.split("\n");
    expect(lines[499]).toBe("f499.txt");
    expect(lines.slice(500)).toEqual([
      "",
      "[Showing 500 of 600 entries. Use limit=600 to see all, or find to search by name.]",
    ]);
    expect(out.details).toEqual({ path: ".", total: 600, shown: 500 });
  });

  it("honours a smaller limit", async () => {
    await env.seed({ a: "", b: "", c: "" });
    expect((await ls({ limit: 2 })).text).toBe(
      "a\nb\n\n[Showing 2 of 3 entries. Use limit=3 to see all, or find to search by name.]",
    );
  });

  it("says an empty folder is empty", async () => {
    await env.ops.mkdir("empty");
    expect((await ls({ path: "empty" })).text).toBe("[empty is an empty folder]");
  });

  it("says a file is not a folder", async () => {
    await env.seed({ "a.txt": "x" });
    expect(await ls({ path: "a.txt" })).toEqual({
      text: "a.txt is a file, not a folder; use read to see its content.",
      isError: true,
    });
  });

  it("says a missing folder was not found", async () => {
    expect(await ls({ path: "nope" })).toEqual({
      text: "Folder not found: nope. Use ls on a parent folder to see what exists.",
      isError: true,
    });
  });

  it("refuses a folder outside the workspace", async () => {
    const out = await ls({ path: "/" });
    expect(out).toEqual({
      text: `Path refused: "/": it lies outside the workspace ${env.ops.cwd}; use a path inside the workspace`,
      isError: true,
    });
  });
});
