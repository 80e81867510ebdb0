import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type Message, type ToolResultMessage } from "@keel/extensions-api";
import { HistoryIndex, toModelContext } from "../src/loop/history.ts";

const user = (text: string): Message => ({ role: "user", content: text, timestamp: 0 });
const reply = (ids: string[], stopReason: AssistantMessage["stopReason"] = "tool_use"): AssistantMessage => ({
  role: "assistant",
  content: ids.map((id) => ({ type: "toolCall", id, name: "read", arguments: "{}" })),
  stopReason,
  usage: emptyUsage(),
  provider: "p",
  model: "m",
  timestamp: 0,
});
const result = (id: string): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text: `result ${id}` }],
  isError: false,
  timestamp: 0,
});
// Placeholder results carry the time they were made; what matters is which message stands where.
const shape = (messages: Message[]) =>
  messages.map((m) =>
    m.role === "toolResult" ? `${m.toolCallId}: ${m.content[0]?.type === "text" ? m.content[0].text : ""}` : m.role,
  );

// Every kind of message the view drops, pairs or fills in, in the order a damaged session might hold them.
const steps: Message[] = [
  user("go"),
  reply(["a", "b"]),
  result("b"),
  result("stray"),
  result("a"),
  reply(["c"], "error"),
  result("c"),
  reply(["d", "d"]),
  result("d"),
  user("steer"),
  reply(["e"]),
];

describe("the history index", () => {
  it("gives, as a history grows one message at a time, the view of the whole history read at once", () => {
    const history: Message[] = [];
    const index = new HistoryIndex();
    for (const message of steps) {
      history.push(message);
      expect(shape(index.view(history))).toEqual(shape(new HistoryIndex().view(history)));
    }
    expect(shape(index.view(history))).toEqual([
      "user",
      "assistant",
      "b: result b",
      "a: result a",
      "assistant",
      "d: result d",
      "d: No result was recorded for this call: the run was interrupted before it finished.",
      "user",
      "assistant",
      "e: No result was recorded for this call: the run was interrupted before it finished.",
    ]);
  });

  it("counts the ids of every call, a failed reply's too", () => {
    const history = [...steps];
    expect([...new HistoryIndex().callIds(history)].sort()).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("reads a replaced or changed history again instead of adding to the old view", () => {
    const index = new HistoryIndex();
    const history = steps.slice(0, 5);
    expect(index.view(history)).toHaveLength(4);
    const replaced = [user("summary"), reply(["z"])];
    expect(shape(index.view(replaced))).toEqual(shape(toModelContext(replaced)));
    expect([...index.callIds(replaced)]).toEqual(["z"]);
    // The same array changed in place (not something the agent does, but the view must not go stale).
    replaced[1] = user("again");
    expect(shape(index.view(replaced))).toEqual(["user", "user"]);
  });

  it("hands out a copy each time, so a caller that changes it changes nothing for the next", () => {
    const index = new HistoryIndex();
    const history = steps.slice(0, 3);
    index.view(history).length = 0;
    expect(index.view(history)).toHaveLength(4);
  });
});
