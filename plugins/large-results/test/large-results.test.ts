/**
 * large-results, module by module on a real temp folder: the transform stores results over the threshold and
 * leaves a preview with a handle; read_result reads ranges and matching lines back.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolResultMessage } from "@keel/extensions-api";
import { afterAll, describe, expect, it } from "vitest";
import { storeIfLarge } from "../src/intercept.ts";
import { readResultTool } from "../src/read-result.ts";
import { handleFor, ResultStore } from "../src/store.ts";

const root = mkdtempSync(join(tmpdir(), "keel-large-"));
const store = new ResultStore(() => join(root, "results"));
const settings = { thresholdBytes: 16 * 1024, previewLines: 40, previewBytes: 3 * 1024 };
const readResult = readResultTool(store, settings.thresholdBytes - 1024);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const numbered = (n: number) =>
  Array.from({ length: n }, (_, i) => `line ${i + 1}: ${"abcdefghij".repeat(3)}`).join("\n") + "\n";

function message(text: string, extra: ToolResultMessage["content"] = []): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: "call_1",
    toolName: "dump",
    content: [{ type: "text", text }, ...extra],
    details: { kept: true },
    isError: false,
    timestamp: 1,
  };
}

const textOf = (m: ToolResultMessage) => m.content.map((b) => (b.type === "text" ? b.text : "")).join("");

async function read(input: Record<string, unknown>) {
  const result = await readResult.execute(readResult.parameters.parse(input), undefined as never);
  return result.content as string;
}

describe("the tool_result transform", () => {
  it("leaves a result at or under 16 KB untouched", async () => {
    const small = message("x".repeat(16 * 1024));
    expect(await storeIfLarge(small, store, settings)).toBe(small);
  });

  it("stores a larger result whole and shows its head, its tail and its handle", async () => {
    const text = numbered(2000);
    const out = await storeIfLarge(message(text), store, settings);
    const handle = handleFor(text);
    expect(readFileSync(join(root, "results", `${handle}.txt`), "utf8")).toBe(text);
    const preview = textOf(out);
    expect(preview.split("\n")[0]).toBe(
      `[This result is ${(Buffer.byteLength(text) / 1024).toFixed(1)} KB (2000 lines), too large to ` +
        `show whole. It is stored as "${handle}": read any lines with read_result({ "handle": ` +
        `"${handle}", "offset": 1, "limit": 200 }), or search it with read_result({ "handle": ` +
        `"${handle}", "grep": "pattern" }).]`,
    );
    expect(preview).toContain("--- lines 1-40 ---\nline 1: ");
    expect(preview).toContain("--- 1920 lines omitted ---\n--- lines 1961-2000 ---\nline 1961: ");
    expect(preview.endsWith("line 2000: abcdefghijabcdefghijabcdefghij")).toBe(true);
    expect(Buffer.byteLength(preview)).toBeLessThan(settings.thresholdBytes);
    expect(out).toMatchObject({ toolCallId: "call_1", toolName: "dump", details: { kept: true }, isError: false });
  });

  it("keeps image blocks next to the preview", async () => {
    const image = { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" };
    const out = await storeIfLarge(message(numbered(1000), [image]), store, settings);
    expect(out.content[1]).toEqual(image);
  });

  it("previews a single huge line by its first and last bytes", async () => {
    const line = "a".repeat(50_000) + "THE END";
    const preview = textOf(await storeIfLarge(message(line), store, settings));
    expect(preview).toContain("--- first 3.0 KB of line 1 ---\naaa");
    expect(preview).toContain("--- last 3.0 KB of line 1 ---\n");
    expect(preview.endsWith("THE END")).toBe(true);
  });
});

describe("read_result", () => {
  const text = numbered(2000);
  const handle = handleFor(text);
  const ready = store.save(text);

  it("reads a range of lines and says where to go next", async () => {
    await ready;
    expect(await read({ handle, offset: 1000, limit: 3 })).toBe(
      `line 1000: abcdefghijabcdefghijabcdefghij\nline 1001: abcdefghijabcdefghijabcdefghij\nline ` +
        `1002: abcdefghijabcdefghijabcdefghij\n\n[Lines 1000-1002 of 2000. Next: read_result({ ` +
        `"handle": "${handle}", "offset": 1003 }).]`,
    );
  });

  it("gives back the exact original text when read range after range", async () => {
    await ready;
    const parts: string[] = [];
    let offset = 1;
    while (offset <= 2000) {
      const out = await read({ handle, offset });
      expect(Buffer.byteLength(out)).toBeLessThan(settings.thresholdBytes);
      const [body, footer] = out.split("\n\n[");
      parts.push(body!);
      offset = Number(/Lines \d+-(\d+) of/.exec(footer!)![1]) + 1;
    }
    expect(parts.join("\n") + "\n").toBe(text);
  });

  it("lists matching lines with their numbers, up to the limit, and says where to continue", async () => {
    await ready;
    expect(await read({ handle, grep: "^line 1[0-9]{3}:", limit: 2 })).toBe(
      "1000: line 1000: abcdefghijabcdefghijabcdefghij\n1001: line 1001: " +
        "abcdefghijabcdefghijabcdefghij\n\n[2 matching lines shown, searched from line 1 of 2000. " +
        'More matches follow; continue with "offset": 1002.]',
    );
  });

  it("matches regardless of case when asked", async () => {
    await ready;
    expect(await read({ handle, grep: "LINE 7:", ignoreCase: true })).toMatch(/^7: line 7: /);
  });

  it("matches an invalid regular expression as plain text, and says so", async () => {
    await ready;
    const out = await read({ handle, grep: "line 12: abc(" });
    expect(out).toMatch(
      new RegExp(
        String.raw`^\["line 12: abc\(" is not a valid regular expression \(.*\); it was matched as plain text\.\]` +
          String.raw`\nNo line from 1 on matches`,
      ),
    );
  });

  it("says when nothing matches", async () => {
    await ready;
    expect(await read({ handle, grep: "zzz" })).toBe(`No line from 1 on matches "zzz" in ${handle} (2000 lines).`);
  });

  it("refuses an unknown handle or a path, saying what a handle looks like", async () => {
    for (const bad of ["res_00000000", "../../etc/passwd", "res_1234"]) {
      await expect(read({ handle: bad })).rejects.toThrow(
        `There is no stored result ${JSON.stringify(bad)} in this session. Handles look like "res_1a2b3c4d"`,
      );
    }
  });

  it("refuses an offset past the end, giving the line count", async () => {
    await ready;
    await expect(read({ handle, offset: 2001 })).rejects.toThrow(
      `Offset 2001 is past the end: result ${handle} has 2000 lines.`,
    );
  });

  it("cuts a single line longer than the budget and says how to see the rest", async () => {
    const huge = "b".repeat(40_000);
    const h = await store.save(huge);
    const out = await read({ handle: h });
    expect(out).toMatch(/^b+\n\n\[Line 1 is 39\.1 KB; showing its first 15\.0 KB\. Search inside it with grep\.\]$/);
  });
});
