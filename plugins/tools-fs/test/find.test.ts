import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../../test/support/workspace.ts";
import { type Env, searchBackends } from "./backends.ts";

const TREE = {
  "README.md": "",
  "src/index.ts": "",
  "src/util/strings.ts": "",
  "src/util/strings.test.ts": "",
  "src/view.tsx": "",
  "lib/old.js": "",
  ".github/workflows/ci.yml": "",
  ".git/config": "",
  ".git/objects/ab.ts": "",
};

describe.each(searchBackends)("find ($name)", (backend) => {
  let env: Env;
  beforeEach(async () => {
    env = backend.setup();
    await env.seed(TREE);
  });
  afterEach(() => env.cleanup());
  const find = (input: unknown) => callTool(env.tools.find, input, env.ctx);

  it("matches a name pattern at any depth, sorted by path, skipping .git", async () => {
    expect(await find({ pattern: "*.ts" })).toMatchObject({
      text: "src/index.ts\nsrc/util/strings.test.ts\nsrc/util/strings.ts",
      isError: false,
    });
  });

  it("matches a pattern with a slash against the path under the folder", async () => {
    expect((await find({ pattern: "src/**/*.test.ts" })).text).toBe("src/util/strings.test.ts");
    expect((await find({ pattern: "src/*.ts" })).text).toBe("src/index.ts");
  });

  it("starts in the folders a pattern names literally, and finds nothing when they do not exist", async () => {
    expect((await find({ pattern: "src/util/*.ts" })).text).toBe("src/util/strings.test.ts\nsrc/util/strings.ts");
    expect((await find({ pattern: "./src/util/strings.ts" })).text).toBe("src/util/strings.ts");
    expect((await find({ pattern: "nope/**/*.ts" })).text).toBe('No files match "nope/**/*.ts" in ..');
  });

  it("understands braces and character classes", async () => {
    expect((await find({ pattern: "*.{tsx,js}" })).text).toBe("lib/old.js\nsrc/view.tsx");
    expect((await find({ pattern: "[RX]*.md" })).text).toBe("README.md");
  });

  it("orders a folder's contents before a file whose name extends the folder's", async () => {
    await env.seed({ "x/z.md": "", "x.md": "", "x-y.md": "" });
    expect((await find({ pattern: "x*.md" })).text).toBe("x-y.md\nx.md");
    expect((await find({ pattern: "**/*.md" })).text).toBe("README.md\nx/z.md\nx-y.md\nx.md");
  });

  it("includes hidden files and folders", async () => {
    expect((await find({ pattern: "*.yml" })).text).toBe(".github/workflows/ci.yml");
  });

  it("searches a subfolder and shows paths relative to the workspace", async () => {
    expect((await find({ pattern: "*.ts", path: "src/util" })).text).toBe(
      "src/util/strings.test.ts\nsrc/util/strings.ts",
    );
  });

  it("skips what .gitignore files ignore, root and nested, with ! re-including", async () => {
    await env.seed({
      ".gitignore": "dist/\n*.log\n!keep.log\n",
      "dist/bundle.js": "",
      "debug.log": "",
      "keep.log": "",
      "src/util/.gitignore": "strings.test.ts\n",
    });
    expect((await find({ pattern: "*.{js,log}" })).text).toBe("keep.log\nlib/old.js");
    expect((await find({ pattern: "strings*" })).text).toBe("src/util/strings.ts");
  });

  it("searches an ignored folder that the path or the pattern names explicitly", async () => {
    await env.seed({ ".gitignore": "dist/\n", "dist/bundle.js": "" });
    expect((await find({ pattern: "*.js", path: "dist" })).text).toBe("dist/bundle.js");
    expect((await find({ pattern: "dist/*.js" })).text).toBe("dist/bundle.js");
    expect((await find({ pattern: "*.js" })).text).toBe("lib/old.js");
  });

  it("applies .gitignore files above the searched folder", async () => {
    await env.seed({ ".gitignore": "*.test.ts\n" });
    expect((await find({ pattern: "*.ts", path: "src" })).text).toBe("src/index.ts\nsrc/util/strings.ts");
  });

  it("shows 1000 paths by default and says how many there are", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1100; i++) files[`many/f${String(i).padStart(4, "0")}.txt`] = "";
    await env.seed(files);
    const out = await find({ pattern: "*.txt" });
    const lines = out.text.split("\n");
    expect(lines[999]).toBe("many/f0999.txt");
    expect(lines.slice(1000)).toEqual([
      "",
      "[Showing the first 1000 of 1100 files. Use limit=1100 for all, or a narrower pattern or path.]",
    ]);
  });

  it("lists files whose names end in a dot (`...`, `notes.`), whatever the pattern", async () => {
    await env.seed({ "odd/...": "", "odd/notes.": "", "odd/a.txt": "" });
    expect((await find({ pattern: "*", path: "odd" })).text).toBe("odd/...\nodd/a.txt\nodd/notes.");
    expect((await find({ pattern: "...", path: "odd" })).text).toBe("odd/...");
    expect((await find({ pattern: "*.", path: "odd" })).text).toBe("odd/...\nodd/notes.");
    expect((await find({ pattern: "notes.{,txt}", path: "odd" })).text).toBe("odd/notes.");
  });

  it("says when nothing matches (not an error)", async () => {
    expect(await find({ pattern: "*.rs" })).toMatchObject({ text: 'No files match "*.rs" in ..', isError: false });
  });

  it("refuses a file as the folder to search", async () => {
    expect(await find({ pattern: "*", path: "README.md" })).toEqual({
      text: "README.md is a file; find searches folders. Give the folder that contains it.",
      isError: true,
    });
  });

  it("says a missing folder was not found", async () => {
    expect(await find({ pattern: "*", path: "nope" })).toEqual({
      text: "Path not found: nope. Check it with ls.",
      isError: true,
    });
  });
});
