import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callTool } from "../../../test/support/workspace.ts";
import { type Env, searchBackends } from "./backends.ts";

const TREE = {
  "src/a.ts": "import x from 'y';\nexport function alpha() {\n  return ALPHA;\n}\n",
  "src/b.ts": "const beta = 'alpha-ish';\n",
  "src/notes.md": "Alpha notes\n",
  "lib/c.js": "one\ntwo\nthree alpha\nfour\nfive\nsix\nseven alpha\neight\n",
  ".git/HEAD": "alpha in git\n",
};

describe.each(searchBackends)("grep ($name)", (backend) => {
  let env: Env;
  beforeEach(async () => {
    env = backend.setup();
    await env.seed(TREE);
  });
  afterEach(() => env.cleanup());
  const grep = (input: unknown) => callTool(env.tools.grep, input, env.ctx);

  it("shows matching lines as path:line: text, in path order, skipping .git", async () => {
    expect(await grep({ pattern: "alpha" })).toMatchObject({
      isError: false,
      text: [
        "lib/c.js:3: three alpha",
        "lib/c.js:7: seven alpha",
        "src/a.ts:2: export function alpha() {",
        "src/b.ts:1: const beta = 'alpha-ish';",
      ].join("\n"),
    });
  });

  it("matches regardless of case when asked", async () => {
    expect((await grep({ pattern: "alpha", ignoreCase: true, path: "src" })).text).toBe(
      [
        "src/a.ts:2: export function alpha() {",
        "src/a.ts:3:   return ALPHA;",
        "src/b.ts:1: const beta = 'alpha-ish';",
        "src/notes.md:1: Alpha notes",
      ].join("\n"),
    );
  });

  it("treats the pattern as a regular expression, or as plain text when literal", async () => {
    await env.seed({ "re.txt": "a.b\naxb\nf(x)\n" });
    expect((await grep({ pattern: "a.b", path: "re.txt" })).text).toBe("re.txt:1: a.b\nre.txt:2: axb");
    expect((await grep({ pattern: "a.b", literal: true, path: "re.txt" })).text).toBe("re.txt:1: a.b");
    expect((await grep({ pattern: "f(x)", literal: true })).text).toBe("re.txt:3: f(x)");
  });

  it("shows context lines marked with - and separates stretches with --", async () => {
    expect((await grep({ pattern: "alpha", path: "lib", context: 1 })).text).toBe(
      [
        "lib/c.js-2- two",
        "lib/c.js:3: three alpha",
        "lib/c.js-4- four",
        "--",
        "lib/c.js-6- six",
        "lib/c.js:7: seven alpha",
        "lib/c.js-8- eight",
      ].join("\n"),
    );
  });

  it("searches only files matching a glob", async () => {
    expect((await grep({ pattern: "alpha", glob: "*.js" })).text).toBe(
      "lib/c.js:3: three alpha\nlib/c.js:7: seven alpha",
    );
    expect((await grep({ pattern: "alpha", glob: "src/**/*.ts", ignoreCase: true })).text).toBe(
      [
        "src/a.ts:2: export function alpha() {",
        "src/a.ts:3:   return ALPHA;",
        "src/b.ts:1: const beta = 'alpha-ish';",
      ].join("\n"),
    );
  });

  it("searches only under the folders a glob names literally", async () => {
    expect((await grep({ pattern: "alpha", glob: "lib/*.js", context: 1 })).text).toBe(
      [
        "lib/c.js-2- two",
        "lib/c.js:3: three alpha",
        "lib/c.js-4- four",
        "--",
        "lib/c.js-6- six",
        "lib/c.js:7: seven alpha",
        "lib/c.js-8- eight",
      ].join("\n"),
    );
    expect((await grep({ pattern: "alpha", glob: "missing/*.js" })).text).toBe(
      'No matches for "alpha" in . (files matching missing/*.js).',
    );
  });

  it("searches files whose names end in a dot, with and without a glob", async () => {
    await env.seed({ "odd/...": "alpha dots\n", "odd/notes.": "alpha note\n" });
    expect((await grep({ pattern: "alpha", path: "odd" })).text).toBe(
      "odd/...:1: alpha dots\nodd/notes.:1: alpha note",
    );
    expect((await grep({ pattern: "alpha", path: "odd", glob: "*" })).text).toBe(
      "odd/...:1: alpha dots\nodd/notes.:1: alpha note",
    );
  });

  it("skips files .gitignore ignores and binary files", async () => {
    await env.seed({
      ".gitignore": "build/\n",
      "build/out.js": "alpha\n",
      "bin/blob": new Uint8Array([...new TextEncoder().encode("alpha"), 0, 1]),
    });
    expect((await grep({ pattern: "alpha", path: "." })).text.split("\n")).toHaveLength(4);
  });

  it("shows 100 matching lines by default and says the limit was reached", async () => {
    await env.seed({ "big.txt": Array.from({ length: 150 }, (_, i) => `hit ${i + 1}`).join("\n") });
    const out = await grep({ pattern: "^hit", path: "big.txt" });
    const lines = out.text.split("\n");
    expect(lines[99]).toBe("big.txt:100: hit 100");
    expect(lines.slice(100)).toEqual([
      "",
      "[100 matches limit reached. Use limit=200 for more, or narrow the pattern, path or glob.]",
    ]);
    expect(out.details).toMatchObject({ matches: 100, limitReached: true });
  });

  it("stops at the limit across files in path order", async () => {
    const out = await grep({ pattern: "alpha", limit: 3 });
    expect(out.text).toBe(
      "lib/c.js:3: three alpha\nlib/c.js:7: seven alpha\nsrc/a.ts:2: export function alpha() " +
        "{\n\n[3 matches limit reached. Use limit=6 for more, or narrow the pattern, path or glob.]",
    );
  });

  it("orders a folder's contents before a file whose name extends the folder's", async () => {
    await env.seed({ "x/z.txt": "omega\n", "x.txt": "omega\n", "x-y.txt": "omega\n" });
    expect((await grep({ pattern: "omega" })).text).toBe("x/z.txt:1: omega\nx-y.txt:1: omega\nx.txt:1: omega");
  });

  it("does not show a match past the limit even inside the last match's context", async () => {
    await env.seed({ "run.txt": "hit\nhit\nhit\nhit\n" });
    expect((await grep({ pattern: "hit", path: "run.txt", context: 2, limit: 2 })).text).toBe(
      "run.txt:1: hit\nrun.txt:2: hit\n\n[2 matches limit reached. Use limit=4 for more, or narrow " +
        "the pattern, path or glob.]",
    );
  });

  it("does not claim the limit when exactly that many lines match", async () => {
    expect((await grep({ pattern: "alpha", limit: 4 })).details).toMatchObject({ matches: 4, limitReached: false });
  });

  it("cuts lines longer than 500 characters and says so", async () => {
    await env.seed({ "min.js": `var alpha=${"x".repeat(900)};\n` });
    const out = await grep({ pattern: "alpha", path: "min.js" });
    expect(out.text).toBe(
      `min.js:1: var alpha=${"x".repeat(490)}… [line cut at 500 characters]\n\n[Some lines were ` +
        `longer than 500 characters and were cut; use read to see them whole.]`,
    );
  });

  it("says when nothing matches (not an error)", async () => {
    expect(await grep({ pattern: "zeta", glob: "*.ts" })).toMatchObject({
      text: 'No matches for "zeta" in . (files matching *.ts).',
      isError: false,
    });
  });

  it("explains an invalid regular expression and offers literal search", async () => {
    const out = await grep({ pattern: "alpha(" });
    expect(out.isError).toBe(true);
    expect(out.text.startsWith('Invalid regular expression "alpha(": ')).toBe(true);
    expect(out.text.endsWith(". Fix the pattern, or pass literal: true to search for the text as it is.")).toBe(true);
  });

  it("says a missing path was not found", async () => {
    expect(await grep({ pattern: "x", path: "nope" })).toEqual({
      text: "Path not found: nope. Check it with ls.",
      isError: true,
    });
  });
});
