import type { CompactRequest, Message } from "@keel/extensions-api";
import { describe, expect, it } from "vitest";
import { compactWindow } from "../src/window.ts";
import { assistant, result, summaryMessage, turn, user } from "../../../test/support/conversation.ts";

const model = { id: "m", provider: "scripted", contextWindow: 100_000, maxOutput: 4_000 };
const request = (messages: Message[], previousSummary?: string): CompactRequest => ({
  messages,
  model,
  reason: "threshold",
  previousSummary,
  tokensBefore: 0,
  signal: new AbortController().signal,
});

function editingTurn(file: string): Message[] {
  return [
    user(100),
    assistant(100, [{ name: "edit", args: { path: file } }]),
    result("edit", 800),
    assistant(100, [{ name: "read", args: { path: "README.md" } }]),
    result("read", 800),
    assistant(100),
  ];
}

describe("compaction-window", () => {
  it("drops the oldest whole turns and notes the tools and files they used", () => {
    const messages = [...editingTurn("a.ts"), ...editingTurn("b.ts"), ...editingTurn("c.ts")];
    const answer = compactWindow(request(messages), 2_500)!;
    expect(answer.firstKeptIndex).toBe(12);
    expect(answer.summary).toContain("- Dropped: 2 turns, 12 messages");
    expect(answer.summary).toContain("- Tools used: edit, read");
    expect(answer.summary).toContain("- Files modified: a.ts, b.ts");
    expect(answer.summary).toContain("- Files read: README.md");
    expect(answer.details).toMatchObject({ strategy: "window", turns: 2, messages: 12 });
  });

  it("adds to its previous note on repeated compaction instead of nesting notes", () => {
    const first = compactWindow(
      request([...editingTurn("a.ts"), ...editingTurn("b.ts"), ...editingTurn("c.ts")]),
      2_500,
    )!;
    const second = compactWindow(
      request(
        [summaryMessage(first.summary), ...editingTurn("c.ts"), ...editingTurn("d.ts"), ...editingTurn("e.ts")],
        first.summary,
      ),
      2_500,
    )!;
    expect(second.summary).toContain("- Dropped: 4 turns, 24 messages");
    expect(second.summary).toContain("- Files modified: a.ts, b.ts, c.ts, d.ts");
    expect(second.summary.match(/Older turns were dropped/g)).toHaveLength(1);
  });

  it("keeps another strategy's summary as the earlier record", () => {
    const answer = compactWindow(
      request(
        [summaryMessage("## Goal\nShip it"), ...editingTurn("a.ts"), ...editingTurn("b.ts"), ...editingTurn("c.ts")],
        "## Goal\nShip it",
      ),
      2_500,
    )!;
    expect(answer.summary).toMatch(/An earlier summary of the conversation:\n## Goal\nShip it$/);
  });

  it("splits a turn bigger than the budget and notes the dropped start of that turn", () => {
    const messages = [
      user(10),
      assistant(10, [{ name: "bash", args: { command: "make" } }]),
      result("bash", 5_000),
      assistant(10, [{ name: "read", args: { path: "x.ts" } }]),
      result("read", 500),
      assistant(10),
    ];
    const answer = compactWindow(request(messages), 1_000)!;
    expect(answer.firstKeptIndex).toBe(3);
    expect(answer.summary).toContain("its first 3 messages were dropped (tools: bash");
    expect(answer.details).toMatchObject({ splitTurn: 3 });
  });

  it("answers nothing when only the previous note is left", () => {
    expect(compactWindow(request([summaryMessage("note")], "note"), 2_000)).toBeUndefined();
  });
});
