import { describe, expect, it } from "vitest";
import { cutToBytes, truncateHead, truncateTail } from "@keel/extensions-api/truncate";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("truncation", () => {
  it("leaves text within the budget alone", () => {
    expect(truncateHead("a\nb\n", { maxLines: 2 })).toMatchObject({ text: "a\nb\n", truncated: false, totalLines: 2 });
  });

  it("keeps the first lines when reading and the last lines of output", () => {
    expect(truncateHead(lines(10), { maxLines: 3 })).toMatchObject({
      text: "line 1\nline 2\nline 3",
      truncated: true,
      truncatedBy: "lines",
      keptLines: 3,
      totalLines: 10,
    });
    expect(truncateTail(lines(10), { maxLines: 3 })).toMatchObject({
      text: "line 8\nline 9\nline 10",
      truncated: true,
      truncatedBy: "lines",
      keptLines: 3,
    });
  });

  it("stops at the byte budget on whole lines", () => {
    expect(truncateHead(lines(10), { maxBytes: 14 })).toMatchObject({
      text: "line 1\nline 2",
      truncatedBy: "bytes",
      keptBytes: 13,
    });
    expect(truncateTail(lines(10), { maxBytes: 15 })).toMatchObject({ text: "line 9\nline 10", truncatedBy: "bytes" });
  });

  it("cuts a single over-long line inside without splitting a character", () => {
    const head = truncateHead("é".repeat(10), { maxBytes: 5 });
    expect(head).toMatchObject({ text: "éé", lineCut: true, keptLines: 0 });
    expect(truncateTail("aé".repeat(5), { maxBytes: 4 })).toMatchObject({ text: "aé", lineCut: true });
    expect(cutToBytes("€uro", 2)).toBe("");
  });
});
