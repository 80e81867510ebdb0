import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type Message } from "@keel/extensions-api";
import { TokenEstimator } from "../src/loop/token-estimate.ts";

const user = (text: string): Message => ({ role: "user", content: text, timestamp: 0 });
const reply = (text: string, input = 0): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  stopReason: "stop",
  usage: { ...emptyUsage(), input },
  provider: "p",
  model: "m",
  timestamp: 0,
});

describe("the token estimate", () => {
  it("stays what a fresh estimate says as a history without reported usage grows, and after it is replaced", () => {
    const estimator = new TokenEstimator();
    const history: Message[] = [];
    for (let i = 0; i < 30; i++) {
      history.push(i % 2 ? reply("x".repeat(40 * i)) : user("y".repeat(8 * i)));
      expect(estimator.estimate([...history], 7)).toBe(new TokenEstimator().estimate([...history], 7));
    }
    // A history that shares only its first message is read again, not added to.
    const replaced = [history[0]!, user("z".repeat(400))];
    expect(estimator.estimate(replaced)).toBe(new TokenEstimator().estimate(replaced));
    // Usage reported later is found although the walk before it was remembered.
    replaced.push(reply("done", 5_000));
    expect(estimator.estimate(replaced)).toBe(5_000);
  });
});
