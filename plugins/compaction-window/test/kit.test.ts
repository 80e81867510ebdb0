import { join } from "node:path";
import { textOf } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { afterEach, describe, expect, it } from "vitest";

const plugins = join(import.meta.dirname, "../..");
const window = join(plugins, "compaction-window");
const summary = join(plugins, "compaction-summary");
let kit: TestKit | undefined;
afterEach(async () => kit?.dispose());

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe("compaction-window in a running keel", () => {
  it(
    "compacts automatically between turns once the context passes the window minus the reserve, " +
      "without a model call",
    async () => {
      // The scripted model has a 200,000-token window; a 199,000 reserve makes the threshold 1,000 tokens.
      kit = await createTestKit({
        plugins: [window],
        settings: { compaction: { strategy: "window", reserveTokens: 199_000, keepRecentTokens: 400 } },
        script: [{ text: words(300) }, { text: words(300) }, { text: "third answer" }],
      });
      await kit.run("first");
      await kit.run("second");
      expect(kit.eventsOf("compaction_start")).toEqual([]);
      await kit.run("third");
      expect(kit.eventsOf("compaction_start")).toEqual([{ reason: "threshold", tokensBefore: expect.any(Number) }]);
      const [end] = kit.eventsOf("compaction_end");
      expect(end!.tokensAfter).toBeLessThan(end!.tokensBefore);
      expect(textOf(kit.runtime.messages[0]!)).toContain("Older turns were dropped");
      expect(kit.runtime.messages.at(-1)).toMatchObject({ role: "assistant" });
      expect(textOf(kit.runtime.messages.at(-1)!)).toBe("third answer");
    },
  );

  it("answers for the model byModel selects it for, while the summary strategy stays the global choice", async () => {
    kit = await createTestKit({
      plugins: [summary, window, join(plugins, "command-compact")],
      settings: {
        compaction: { strategy: "summary", keepRecentTokens: 400, byModel: { "scripted/script": "window" } },
      },
      // No turn for a summary: if the summary strategy answered, the scripted model would fail the compaction.
      script: [{ text: words(200) }, { text: words(200) }, { text: words(200) }],
    });
    for (const prompt of ["one", "two", "three"]) await kit.run(prompt);
    await kit.runtime.runCommand("/compact");
    expect(kit.eventsOf("compaction_end")[0]).toMatchObject({
      firstKeptIndex: 4,
      details: { strategy: "window", turns: 2 },
    });
  });
});
