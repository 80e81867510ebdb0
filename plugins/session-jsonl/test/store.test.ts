/**
 * The session store surfaces drive (`runtime.sessionStore()`): new, list, switch, fork, tree and jump move the
 * same session files the slash commands do, and refuse to move while a run is going.
 */
import { join } from "node:path";
import { textOf, type Message } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";
import { afterEach, describe, expect, it } from "vitest";

const sessions = join(import.meta.dirname, "..");
const kits: TestKit[] = [];
afterEach(async () => {
  for (const kit of kits.splice(0).reverse()) await kit.dispose();
});

async function keel(script: unknown[]): Promise<TestKit> {
  const kit = await createTestKit({ plugins: [sessions], script: script as never });
  kits.push(kit);
  return kit;
}

const texts = (messages: readonly Message[]) => messages.map((m) => textOf(m));

describe("the session-jsonl session store", () => {
  it("starts a new session, lists both, and switches back to the first with its history", async () => {
    const kit = await keel([{ text: "one" }, { text: "two" }]);
    const store = (await kit.runtime.sessionStore())!;
    await kit.run("first");
    const firstId = kit.runtime.sessionId;
    await store.newSession();
    expect(kit.runtime.sessionId).not.toBe(firstId);
    expect(kit.runtime.messages).toEqual([]);
    expect(kit.eventsOf("history_replaced").at(-1)!.reason).toBe("new");
    await kit.run("second");
    expect(store.list().map((s) => s.firstPrompt)).toEqual(["second", "first"]);
    await store.switchTo(firstId);
    expect(kit.runtime.sessionId).toBe(firstId);
    expect(texts(kit.runtime.messages)).toEqual(["first", "one"]);
  });

  it("says what it tried when no session matches, and stays where it was", async () => {
    const kit = await keel([{ text: "one" }]);
    const store = (await kit.runtime.sessionStore())!;
    await kit.run("first");
    const id = kit.runtime.sessionId;
    await expect(store.switchTo("no-such-id")).rejects.toThrow(/no session with that id/);
    expect(kit.runtime.sessionId).toBe(id);
  });

  it("gives the tree as entries with the leaf, jumps back in it, and forks into a new session", async () => {
    const kit = await keel([{ text: "one" }, { text: "two" }]);
    const store = (await kit.runtime.sessionStore())!;
    await kit.run("a");
    await kit.run("b");
    const tree = store.tree();
    expect(tree.sessionId).toBe(kit.runtime.sessionId);
    expect(tree.entries.map((e) => e.kind)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(tree.entries[1]!.preview).toBe("assistant: one");
    expect(tree.leafId).toBe(tree.entries[3]!.id);
    await store.jump(tree.entries[1]!.id);
    expect(texts(kit.runtime.messages)).toEqual(["a", "one"]);
    const before = kit.runtime.sessionId;
    const forked = await store.fork();
    expect(forked).not.toBe(before);
    expect(kit.runtime.sessionId).toBe(forked);
    expect(texts(kit.runtime.messages)).toEqual(["a", "one"]);
  });

  it("refuses to move while a run is going", async () => {
    const kit = await keel([{ text: "slow", hang: true }]);
    const store = (await kit.runtime.sessionStore())!;
    const run = kit.runtime.prompt("wait");
    while (!kit.runtime.isRunning) await new Promise((r) => setImmediate(r));
    await expect(store.newSession()).rejects.toThrow(/while the agent is working/);
    kit.runtime.abort();
    await run;
  });
});
