import { newSseStats, readSse, type SseEvent } from "@keel/provider-kit";
import { describe, expect, it } from "vitest";

async function read(chunks: (string | Uint8Array)[]) {
  const enc = new TextEncoder();
  const stats = newSseStats();
  const events: SseEvent[] = [];
  async function* body() {
    for (const c of chunks) yield typeof c === "string" ? enc.encode(c) : c;
  }
  for await (const e of readSse(body(), stats)) events.push(e);
  return { events, stats };
}

describe("SSE reading", () => {
  it("decodes a UTF-8 character split across two chunks", async () => {
    const bytes = new TextEncoder().encode('data: "🚀"\n\n');
    const { events } = await read([bytes.subarray(0, 8), bytes.subarray(8)]);
    expect(events).toEqual([{ data: '"🚀"' }]);
  });

  it("reads event names, CRLF line ends and multi-line data", async () => {
    const { events } = await read(["event: a\r\ndata: one\r\ndata: two\r\n\r\n", "data: [DONE]\n\n"]);
    expect(events).toEqual([{ event: "a", data: "one\ntwo" }, { data: "[DONE]" }]);
  });

  it("skips comments and counts lines that are not SSE fields", async () => {
    const { events, stats } = await read([": keep-alive\n\nnot a field\ndata: x\n\n"]);
    expect(events).toEqual([{ data: "x" }]);
    expect(stats.ignoredLines).toBe(1);
  });

  it("dispatches an event still pending at the end of the body, marked unterminated", async () => {
    const { events, stats } = await read(["data: whole\n\ndata: [DONE]"]);
    expect(events).toEqual([{ data: "whole" }, { data: "[DONE]", unterminated: true }]);
    expect(stats).toMatchObject({ events: 2, lastEvent: "[DONE]" });
    expect((await read(["data: whole\n\n"])).events).toEqual([{ data: "whole" }]);
  });
});
