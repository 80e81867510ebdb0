/**
 * Front matter as people write it: valid YAML, YAML broken only by unquoted colons or brackets in one-line
 * values (read as Claude Code reads it: the literal text), and headers broken beyond that (refused, naming why).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseFrontMatter, readHeader } from "../src/index.ts";

const file = (header: string, body = "Body.\n") => `---\n${header}\n---\n${body}`;

describe("front matter", () => {
  it("parses a YAML header and returns the body after it", async () => {
    const read = await parseFrontMatter(file("name: a\ntools: [Read, Grep]"));
    expect(read).toEqual({ data: { name: "a", tools: ["Read", "Grep"] }, body: "Body.\n" });
  });

  it("takes a file without a header as all body", async () => {
    expect(await parseFrontMatter("# Title\n")).toEqual({ data: {}, body: "# Title\n" });
  });

  it("reads an empty header as no keys", async () => {
    expect(await parseFrontMatter("---\n---\nBody")).toEqual({ data: {}, body: "Body" });
  });

  it("reads an unquoted colon in a value as part of the value", async () => {
    const read = await parseFrontMatter(file("name: x\ndescription: Use when: the build fails. Note: slow"));
    expect(read.data).toEqual({ name: "x", description: "Use when: the build fails. Note: slow" });
  });

  it("reads brackets and bars in a one-line value as its text", async () => {
    const read = await parseFrontMatter(file("argument-hint: [--fix] | [file]\nallowed-tools: Bash(git:*), Read"));
    expect(read.data).toEqual({ "argument-hint": "[--fix] | [file]", "allowed-tools": "Bash(git:*), Read" });
  });

  it("keeps the values that were valid YAML as YAML (lists, numbers, blocks)", async () => {
    const header = "description: a: b\nmaxTurns: 5\ntools:\n  - Read\n  - Grep\nprompt: |\n  line: one\n  line two";
    const read = await parseFrontMatter(file(header));
    expect(read.data).toEqual({
      description: "a: b",
      maxTurns: 5,
      tools: ["Read", "Grep"],
      prompt: "line: one\nline two\n",
    });
  });

  it("refuses a header broken beyond one-line values, saying it is not YAML", async () => {
    const problems: string[] = [];
    const read = await readHeader(file("name: x\n  - stray: [\n"), "a/SKILL.md", z.object({}).loose(), problems);
    expect(read).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(/^a\/SKILL\.md: its front matter is not YAML \(.+\); the file/)]);
  });

  it("refuses a header that is a list, not keys", async () => {
    const problems: string[] = [];
    await readHeader(file("- a\n- b"), "x.md", z.object({}).loose(), problems);
    expect(problems).toEqual(["x.md: its front matter is not a YAML mapping of keys to values; the file was skipped"]);
  });
});

describe("simple headers, read without the YAML parser", () => {
  const cases: [string, string][] = [
    ["plain and quoted text", "name: a\ndescription: \"Say \\\"hi\\\".\"\nhint: 'it''s'"],
    ["numbers, flags and null", "maxTurns: 5\nratio: 0.5\non: true\noff: false\nnone: ~\nempty:"],
    ["flow and block lists", "tools: [Read, Grep]\nskills: []\nallowed-tools:\n  - Read\n  - Bash(git *)"],
    ["a comment line", "# note\nname: x"],
  ];
  for (const [what, header] of cases)
    it(`reads ${what} as the YAML parser does`, async () => {
      const { parseSimpleHeader } = await import("../src/simple.ts");
      const { parse } = await import("yaml");
      expect(parseSimpleHeader(header)).toEqual(parse(header));
    });

  it("leaves to the YAML parser what it does not know", async () => {
    const { parseSimpleHeader } = await import("../src/simple.ts");
    for (const header of ["a: |\n  x", "a:\n  b: c", "a: x # c", "a: &r x", "a: b\na: c", "d:\n  more text"])
      expect(parseSimpleHeader(header), header).toBeUndefined();
  });
});
