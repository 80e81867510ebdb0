import { join } from "node:path";
import { createTestKit, type TestKit } from "@keel/testing";
import { afterEach, describe, expect, it } from "vitest";

const plugins = join(import.meta.dirname, "../..");
let kit: TestKit | undefined;
afterEach(async () => kit?.dispose());

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

describe("/compact", () => {
  it("is loaded only when used, then compacts with the selected strategy and says how much it saved", async () => {
    kit = await createTestKit({
      plugins: [join(plugins, "command-compact"), join(plugins, "compaction-window")],
      settings: { compaction: { strategy: "window", keepRecentTokens: 400 } },
      script: [{ text: words(200) }, { text: words(200) }, { text: words(200) }],
    });
    expect(kit.plugins().find((p) => p.name === "@keel/plugin-command-compact")?.state).toBe("lazy");
    await kit.run("first task");
    await kit.run("second task");
    await kit.run("third task");

    expect(await kit.runtime.runCommand("/compact keep the API notes")).toBe(true);
    const [end] = kit.eventsOf("compaction_end");
    expect(end).toMatchObject({ reason: "manual", firstKeptIndex: 4 });
    expect(end!.summary).toContain("- Dropped: 2 turns, 4 messages");
    expect(kit.runtime.messages).toHaveLength(3);
    expect(kit.eventsOf("notice").at(-1)!.message).toMatch(
      /^\/compact: context went from about [\d,]+ to [\d,]+ tokens\.$/,
    );
  });

  it("says so when there is nothing to compact", async () => {
    kit = await createTestKit({
      plugins: [join(plugins, "command-compact"), join(plugins, "compaction-window")],
      settings: { compaction: { strategy: "window" } },
    });
    await kit.runtime.runCommand("/compact");
    expect(kit.eventsOf("notice").at(-1)).toMatchObject({
      level: "info",
      message: expect.stringMatching(/^\/compact: nothing was compacted/),
    });
  });
});
