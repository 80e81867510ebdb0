/**
 * The contract of `api.session` and `history_replaced`, with no session store: what append accepts and
 * refuses, that entries are copies, and that every way of replacing the history fires the event with the
 * entries of the new branch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { definePlugin, type EventPayloads, type PluginAPI, type PluginEntry } from "@keel/extensions-api";
import { createTestKit, type InlinePlugin, type TestKit } from "@keel/testing";

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

/** An inline plugin that hands out its API. */
function capture(name: string, sink: { api?: PluginAPI }): InlinePlugin {
  return { name, plugin: definePlugin({ activate: (api) => void (sink.api = api) }) };
}

const compactAll: InlinePlugin = {
  name: "compact-all",
  plugin: definePlugin({
    activate: (api) =>
      void api.hooks.tap("compact", (r) => ({ summary: "all of it", firstKeptIndex: r.messages.length - 1 })),
  }),
};

describe("api.session", () => {
  it("appends copies of JSON data, reports each as session_entry, and lists only the plugin's own", async () => {
    const a: { api?: PluginAPI } = {};
    const b: { api?: PluginAPI } = {};
    kit = await createTestKit({ inline: [capture("a", a), capture("b", b)] });
    const data = { items: ["x"] };
    a.api!.session.append("todos", data);
    data.items.push("changed later");
    b.api!.session.append("notes", 1);
    a.api!.session.append("other", null);

    expect(a.api!.session.entries().map((e) => [e.kind, e.data])).toEqual([
      ["todos", { items: ["x"] }],
      ["other", null],
    ]);
    expect(a.api!.session.entries("todos")).toHaveLength(1);
    expect(b.api!.session.entries().map((e) => e.data)).toEqual([1]);
    expect(kit.eventsOf("session_entry").map((e) => `${e.entry.plugin}/${e.entry.kind}`)).toEqual([
      "a/todos",
      "b/notes",
      "a/other",
    ]);
    expect(() => (a.api!.session.entries()[0]!.data as { items: string[] }).items.push("y")).toThrow(TypeError);
  });

  it("refuses what it cannot keep, saying which plugin and why", async () => {
    const a: { api?: PluginAPI } = {};
    kit = await createTestKit({ inline: [capture("a", a)] });
    const session = a.api!.session;
    expect(() => session.append("has space", 1)).toThrow(
      'a: api.session.append("has space"): the kind must be 1-64 letters, digits, _ . : or -',
    );
    expect(() => session.append("k", undefined)).toThrow("the data must be plain JSON (got undefined)");
    expect(() => session.append("k", { n: 1n })).toThrow(/the data must be plain JSON \(.*BigInt/);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => session.append("k", loop)).toThrow(/the data must be plain JSON \(.*circular/i);
    expect(() => session.append("k", "x".repeat(1 << 20))).toThrow(
      /over the 1 MB limit; keep large state in runtime.dataDir/,
    );
    expect(session.entries()).toEqual([]);
  });

  it("is refused during activate(), before the session starts", async () => {
    let thrown = "";
    const early: InlinePlugin = {
      name: "early",
      plugin: definePlugin({
        activate(api) {
          try {
            api.session.append("k", 1);
          } catch (error) {
            thrown = (error as Error).message;
          }
        },
      }),
    };
    kit = await createTestKit({ inline: [early] });
    expect(thrown).toBe(
      "early: api.session.append is available from the session_start hook on, not during activate().",
    );
  });
});

describe("history_replaced", () => {
  it("fires on replaceMessages with the store's entries, and keeps the entries when none are given", async () => {
    const a: { api?: PluginAPI } = {};
    kit = await createTestKit({ inline: [capture("a", a)], script: [{ text: "one" }] });
    await kit.run("hi");
    const entries: PluginEntry[] = [{ plugin: "a", kind: "todos", data: { n: 2 }, timestamp: 5 }];
    kit.runtime.replaceMessages(kit.runtime.messages.slice(0, 1), { reason: "tree", entries });
    kit.runtime.replaceMessages([]);
    const fired = kit.eventsOf("history_replaced");
    expect(fired.map((e) => [e.reason, e.messages.length, e.entries.map((x) => x.data)])).toEqual([
      ["tree", 1, [{ n: 2 }]],
      ["other", 0, [{ n: 2 }]],
    ]);
    expect(a.api!.session.entries()).toEqual(entries);
  });

  it("refuses entries without a plugin or kind and changes nothing", async () => {
    kit = await createTestKit({ script: [{ text: "one" }] });
    await kit.run("hi");
    const bad = [{ kind: "x", data: 1, timestamp: 1 }] as unknown as PluginEntry[];
    expect(() => kit!.runtime.replaceMessages([], { entries: bad })).toThrow(
      "replaceMessages: plugin entry 0 has no plugin or kind name; a session store must hand back " +
        "the entries it was given",
    );
    expect(kit.runtime.messages).toHaveLength(2);
    expect(kit.eventsOf("history_replaced")).toEqual([]);
  });

  it("fires after a compaction, with the compacted history and the unchanged entries", async () => {
    const a: { api?: PluginAPI } = {};
    kit = await createTestKit({ inline: [capture("a", a), compactAll], script: [{ text: "one" }, { text: "two" }] });
    await kit.run("first");
    a.api!.session.append("todos", ["x"]);
    await kit.run("second");
    expect(await kit.runtime.compact()).toBeDefined();
    const names = kit.eventNames();
    expect(names.indexOf("history_replaced")).toBeGreaterThan(names.indexOf("compaction_end"));
    const [replaced] = kit.eventsOf("history_replaced") as EventPayloads["history_replaced"][];
    expect(replaced!.reason).toBe("compaction");
    expect(replaced!.messages).toEqual(kit.runtime.messages);
    expect(replaced!.entries.map((e) => e.data)).toEqual([["x"]]);
  });
});
