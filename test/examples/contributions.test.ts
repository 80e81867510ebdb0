/**
 * The examples that contribute something (a compaction strategy, an operations backend, a slash command, a
 * tool with session state), each loaded from its folder through the real host and made to do its job.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { textOf } from "@keel/extensions-api";
import { createTestKit, type TestKit } from "@keel/testing";

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));
const plugin = (name: string) => fileURLToPath(new URL(`../../plugins/${name}`, import.meta.url));

let kit: TestKit | undefined;
afterEach(async () => {
  await kit?.dispose();
  kit = undefined;
});

const notices = (k: TestKit) => k.eventsOf("notice").map((n) => n.message);

describe("examples/compaction-prompts", () => {
  it("replaces the old turns with the list of what the user asked, and keeps the last turn", async () => {
    kit = await createTestKit({
      plugins: [example("compaction-prompts")],
      settings: { compaction: { strategy: "prompts", keepRecentTokens: 10_000 } },
      script: [{ text: "one" }, { text: "two" }, { text: "three" }],
    });
    for (const prompt of ["first ask", "second ask", "third ask"]) await kit.run(prompt);
    expect(await kit.runtime.compact()).toBeDefined();
    const [summary, ...kept] = kit.runtime.messages;
    expect(textOf(summary!)).toContain("Earlier requests from the user (oldest first):\n- first ask\n- second ask");
    expect(textOf(summary!)).not.toContain("third ask");
    expect(kept.map((m) => textOf(m))).toEqual(["third ask", "three"]);
  });

  it("leaves compaction to others when another strategy is selected", async () => {
    kit = await createTestKit({ plugins: [example("compaction-prompts")], script: [{ text: "one" }, { text: "two" }] });
    await kit.run("first ask");
    await kit.run("second ask");
    expect(await kit.runtime.compact()).toBeUndefined();
    expect(kit.eventsOf("compaction_end")[0]!.errorMessage).toBe("No compaction strategy answered.");
  });
});

describe("examples/readonly-ops", () => {
  const script = [
    {
      toolCalls: [
        { name: "read", arguments: { path: "notes.txt" } },
        { name: "write", arguments: { path: "notes.txt", content: "overwritten" } },
      ],
    },
    { text: "done" },
  ];

  it("reads through the wrapped local backend and refuses writes, leaving the file as it was", async () => {
    kit = await createTestKit({
      plugins: [plugin("ops-local"), plugin("tools-fs"), example("readonly-ops")],
      settings: { ops: "readonly" },
      files: { "notes.txt": "keep me\n" },
      script,
    });
    expect(kit.plugins().find((p) => p.name === "@keel/plugin-ops-local")?.state).toBe("lazy");
    await kit.run("read then write notes.txt");
    const [read, write] = kit.toolResults();
    expect(textOf(read!)).toContain("keep me");
    expect(write!.isError).toBe(true);
    expect(textOf(write!)).toContain("this session is read-only (the readonly backend)");
    expect(readFileSync(join(kit.cwd, "notes.txt"), "utf8")).toBe("keep me\n");
    // api.opsBackend activated the lazy ops-local plugin to reach its backend.
    expect(kit.plugins().find((p) => p.name === "@keel/plugin-ops-local")?.state).toBe("active");
  });

  it("says which setting names a backend that is not installed", async () => {
    kit = await createTestKit({
      plugins: [plugin("tools-fs"), example("readonly-ops")],
      settings: { ops: "readonly", "readonly-ops": { inner: "nowhere" } },
      files: { "notes.txt": "x" },
      script,
    });
    await kit.run("read notes.txt");
    expect(textOf(kit.toolResults()[0]!)).toContain(
      'readonly-ops: no operations backend named "nowhere" (setting readonly-ops.inner) is installed',
    );
  });
});

describe("examples/session-stats", () => {
  it("/stats counts messages, tool calls and failures", async () => {
    kit = await createTestKit({
      plugins: [example("session-stats")],
      script: [{ toolCalls: [{ name: "missing_tool" }] }, { text: "ok" }],
    });
    await kit.run("go");
    expect(await kit.runtime.runCommand("/stats")).toBe(true);
    expect(notices(kit).at(-1)).toMatch(
      /^1 user and 2 assistant messages; 1 tool calls \(1 failed\); \d+ input and \d+ output tokens reported\.$/,
    );
  });
});

describe("examples/todo", () => {
  it("keeps its list as session entries and rebuilds it when the history is replaced", async () => {
    const add = (text: string) => ({ toolCalls: [{ name: "todo", arguments: { action: "add", text } }] });
    kit = await createTestKit({
      plugins: [example("todo")],
      script: [
        add("a"),
        add("b"),
        { toolCalls: [{ name: "todo", arguments: { action: "done", id: 1 } }] },
        { text: "ok" },
      ],
    });
    await kit.run("plan");
    expect(textOf(kit.toolResults().at(-1)!)).toBe("1. [x] a\n2. [ ] b");
    const saved = kit.eventsOf("session_entry").map((e) => e.entry);
    expect(saved.map((e) => [e.plugin, e.kind])).toEqual(Array(3).fill(["keel-example-todo", "todos"]));

    // A store moving to the branch that ended after the first add hands back that branch's entries.
    kit.runtime.replaceMessages([], { reason: "tree", entries: saved.slice(0, 1) });
    await kit.runtime.runCommand("/todos");
    expect(notices(kit).at(-1)).toBe("Todos:\n1. [ ] a");
    kit.runtime.replaceMessages([], { reason: "fork", entries: [] });
    await kit.runtime.runCommand("/todos");
    expect(notices(kit).at(-1)).toBe("Todos:\nThe todo list is empty.");
  });
});
