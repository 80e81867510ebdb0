import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../src/unified-diff.ts";

/** The diff package run on the whole texts: what the windowed diff must equal. */
const whole = (before: string, after: string) =>
  formatPatch(structuredPatch("f", "f", before, after, undefined, undefined, { context: 3 }), FILE_HEADERS_ONLY);

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`);

describe("unified diff of an edit", () => {
  const cases: [string, string, string][] = [
    [
      "one line changed in the middle",
      lines(300).join("\n") + "\n",
      lines(300).join("\n").replace("line 150\n", "line 150 changed\n") + "\n",
    ],
    ["the first line changed", lines(20).join("\n") + "\n", "first\n" + lines(20).slice(1).join("\n") + "\n"],
    ["the last line changed, no final newline", lines(20).join("\n"), lines(19).join("\n") + "\nlast"],
    ["a final newline added", lines(10).join("\n"), lines(10).join("\n") + "\n"],
    [
      "lines inserted",
      lines(50).join("\n") + "\n",
      lines(50).join("\n").replace("line 25\n", "line 25\nnew a\nnew b\n") + "\n",
    ],
    ["lines removed", lines(50).join("\n") + "\n", lines(50).join("\n").replace("line 10\nline 11\n", "") + "\n"],
    [
      "two changes far apart",
      lines(400).join("\n") + "\n",
      lines(400).join("\n").replace("line 20\n", "twenty\n").replace("line 380\n", "three-eighty\n") + "\n",
    ],
    ["a change inside a line near a duplicate", "a\nb\nb\nb\nc\n", "a\nb\nb\nb\nb\nc\n"],
    ["everything replaced", "x\ny\n", "p\nq\nr\n"],
  ];

  it.each(cases)("equals the diff of the whole text: %s", async (_name, before, after) => {
    expect((await unifiedDiff("f", before, after)).text).toBe(whole(before, after));
  });

  it("counts added and removed lines and names the first changed line", async () => {
    const diff = await unifiedDiff(
      "f",
      lines(30).join("\n") + "\n",
      lines(30).join("\n").replace("line 12\n", "twelve\nand more\n") + "\n",
    );
    expect(diff).toMatchObject({ added: 2, removed: 1, firstChangedLine: 12 });
  });

  // Its speed is measured by bench/tools-fs.bench.mjs (edit on a 10 MB file), not here.
  it("numbers the hunk of one changed line in a 150,000-line text", async () => {
    const before = lines(150_000).join("\n") + "\n";
    const after = before.replace("line 75000\n", "line 75000 changed\n");
    const diff = await unifiedDiff("big", before, after);
    expect(diff.text).toContain("@@ -74997,7 +74997,7 @@");
  });
});
