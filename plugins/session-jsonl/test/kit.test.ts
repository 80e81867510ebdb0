import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type Message } from "@keel/extensions-api";
import { createTestKit, type TestKit, type TestKitOptions } from "@keel/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadSession } from "../src/load.ts";
import { sessionDir } from "../src/paths.ts";
import { tempDir } from "./helpers.ts";

const plugins = join(import.meta.dirname, "../..");
const sessions = join(plugins, "session-jsonl");
const kits: TestKit[] = [];
const temp = tempDir();
afterEach(async () => {
  for (const kit of kits.splice(0).reverse()) await kit.dispose();
});
afterAll(() => temp.cleanup());

async function keel(options: TestKitOptions): Promise<TestKit> {
  const kit = await createTestKit({ ...options, plugins: [sessions, ...(options.plugins ?? [])] });
  kits.push(kit);
  return kit;
}

function sessionFiles(kit: TestKit): string[] {
  const dir = sessionDir(kit.keelHome, kit.cwd);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => join(dir, f))
    : [];
}

/** A copy of the kit's one session file that outlives the kit's temp folders. */
function keep(kit: TestKit): string {
  const [file] = sessionFiles(kit);
  const copy = join(temp.dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  copyFileSync(file!, copy);
  return copy;
}

const view = (messages: readonly Message[]) => messages.map((m) => (m.role === "user" && m.kind ? m.kind : textOf(m)));
const notices = (kit: TestKit) => kit.eventsOf("notice").map((n) => n.message);

describe("session-jsonl in a running keel", () => {
  it("records the run under KEEL_HOME/sessions/<folder>/, starting with the first answer", async () => {
    const kit = await keel({ script: [{ text: "hi there" }] });
    expect(sessionFiles(kit)).toEqual([]);
    await kit.run("hello");
    const [file] = sessionFiles(kit);
    const lines = readFileSync(file!, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", version: 1, id: kit.runtime.sessionId, cwd: kit.cwd });
    expect(lines.slice(1).map((l) => [l.type, l.message.role])).toEqual([
      ["message", "user"],
      ["message", "assistant"],
    ]);
  });

  it("keeps nothing with --no-session", async () => {
    const kit = await keel({ script: [{ text: "hi" }], flags: { "no-session": true } });
    await kit.run("hello");
    expect(sessionFiles(kit)).toEqual([]);
    const negated = await keel({ script: [{ text: "hi" }], flags: { session: false } });
    await negated.run("hello");
    expect(sessionFiles(negated)).toEqual([]);
  });

  it("resumes with --session <path>: same history and id, and the next run continues the branch", async () => {
    const first = await keel({ script: [{ text: "one" }, { text: "two" }] });
    await first.run("a");
    await first.run("b");
    const id = first.runtime.sessionId;
    const path = keep(first);

    const second = await keel({ script: [{ text: "three" }], flags: { session: path } });
    expect(second.runtime.sessionId).toBe(id);
    expect(view(second.runtime.messages)).toEqual(["a", "one", "b", "two"]);
    await second.run("c");
    const session = loadSession(path);
    expect(session.entries).toHaveLength(6);
    expect(session.entries[4]!.parentId).toBe(session.entries[3]!.id);
  });

  it("resumes a compacted session from the summary and the kept messages", async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
    const first = await keel({
      plugins: [join(plugins, "compaction-window"), join(plugins, "command-compact")],
      settings: { compaction: { strategy: "window", keepRecentTokens: 300 } },
      script: [{ text: words(300) }, { text: words(300) }, { text: words(300) }, { text: "after" }],
    });
    for (const p of ["one", "two", "three"]) await first.run(p);
    await first.runtime.runCommand("/compact");
    await first.run("four");
    const before = view(first.runtime.messages);
    expect(before[0]).toBe("compaction_summary");
    const path = keep(first);

    const second = await keel({ flags: { session: path } });
    expect(view(second.runtime.messages)).toEqual(before);
    expect(textOf(second.runtime.messages[0]!)).toContain("Older turns were dropped");
    expect(loadSession(path).entries.filter((e) => e.type === "message")).toHaveLength(8);
  });

  it("opens a session another keel is writing read-only, says so, and writes nothing", async () => {
    const first = await keel({ script: [{ text: "one" }] });
    await first.run("a");
    const [path] = sessionFiles(first);
    const size = readFileSync(path!).length;

    const second = await keel({ script: [{ text: "two" }], flags: { session: path } });
    expect(notices(second).join("\n")).toMatch(/is open in process \d+ .*read-only: nothing from now on is saved/);
    await second.run("b");
    expect(readFileSync(path!).length).toBe(size);
  });

  it("says what to do when --session names nothing, and starts a new session", async () => {
    const kit = await keel({ script: [{ text: "hi" }], flags: { session: "no-such-id" } });
    expect(kit.eventsOf("notice")).toContainEqual({
      level: "error",
      message: expect.stringMatching(
        /--session no-such-id: no session with that id; run `keel sessions`.*Starting a new session instead\./,
      ),
    });
    await kit.run("hello");
    expect(sessionFiles(kit)).toHaveLength(1);
  });

  it("refuses a session file written by a newer keel with what to do, and starts a new session", async () => {
    const path = join(temp.dir, "future.jsonl");
    const header = { type: "session", version: 99, id: "future", cwd: "/x", created: "2030-01-01T00:00:00.000Z" };
    writeFileSync(path, `${JSON.stringify(header)}\n`);
    const kit = await keel({ script: [{ text: "hi" }], flags: { session: path } });
    expect(kit.eventsOf("notice")).toContainEqual({
      level: "error",
      message: expect.stringMatching(
        new RegExp(
          String.raw`written by a newer keel \(session format 99; this one reads up to 1\); update keel to open it\. ` +
            String.raw`Starting a new session instead\.`,
        ),
      ),
    });
    expect(kit.runtime.sessionId).not.toBe("future");
  });
});

describe("the session commands", () => {
  it("/label bookmarks, /tree <label> rewinds there, and the next message starts a new branch", async () => {
    const kit = await keel({ script: [{ text: "one" }, { text: "two" }, { text: "other two" }] });
    await kit.run("a");
    await kit.runtime.runCommand("/label checkpoint");
    await kit.run("b");
    await kit.runtime.runCommand("/tree checkpoint");
    expect(notices(kit).at(-1)).toMatch(/^Moved to \w+; 2 messages in context\.$/);
    expect(view(kit.runtime.messages)).toEqual(["a", "one"]);
    await kit.run("b2");

    await kit.runtime.runCommand("/tree");
    const tree = notices(kit).at(-1)!;
    expect(tree).toContain("[checkpoint] assistant: one");
    expect(tree).toMatch(/├─ \w+ user: b\n.*assistant: two/);
    expect(tree).toMatch(/\* └─ \w+ user: b2\n\*\s+\w+ assistant: other two {2}← leaf/);
    const [file] = sessionFiles(kit);
    expect(loadSession(file!).entries.filter((e) => e.type === "message")).toHaveLength(6);
  });

  it("/tree <id> --summarize keeps a summary of the branch it leaves, written by the session's model", async () => {
    const kit = await keel({
      script: [{ text: "one" }, { text: "tried a rewrite" }, { text: "- tried a rewrite of the parser; it failed" }],
    });
    await kit.run("a");
    await kit.runtime.runCommand("/label start");
    await kit.run("rewrite the parser");
    await kit.runtime.runCommand("/tree start --summarize");
    expect(notices(kit).at(-1)).toMatch(
      /^Moved to \w+; 3 messages in context \(with a summary of the branch you left\)\.$/,
    );
    expect(view(kit.runtime.messages)).toEqual(["a", "one", "branch_summary"]);
    expect(textOf(kit.runtime.messages[2]!)).toContain("- tried a rewrite of the parser; it failed");
    const [file] = sessionFiles(kit);
    expect(loadSession(file!).entries.filter((e) => e.type === "branch_summary")).toHaveLength(1);
  });

  it("/fork continues in a new session file that records where it came from", async () => {
    const kit = await keel({ script: [{ text: "one" }, { text: "two" }] });
    await kit.run("a");
    const original = kit.runtime.sessionId;
    await kit.runtime.runCommand("/fork");
    expect(notices(kit).at(-1)).toMatch(/^Forked at \w+ into session [\w-]+ \(.*\.jsonl\)\.$/);
    expect(kit.runtime.sessionId).not.toBe(original);
    await kit.run("b");
    const files = sessionFiles(kit).map((f) => loadSession(f));
    const forked = files.find((s) => s.header.id === kit.runtime.sessionId)!;
    expect(forked.header.parentSession).toMatchObject({ id: original });
    expect(forked.entries).toHaveLength(4);
    expect(files.find((s) => s.header.id === original)!.entries).toHaveLength(2);
  });

  it("/export writes Markdown and HTML files of the current branch", async () => {
    const kit = await keel({ script: [{ text: "the answer" }] });
    await kit.run("the question");
    await kit.runtime.runCommand("/export md");
    await kit.runtime.runCommand("/export page.html");
    const md = readFileSync(join(kit.cwd, `session-${kit.runtime.sessionId.slice(0, 8)}.md`), "utf8");
    expect(md).toContain("## User\n\nthe question");
    expect(readFileSync(join(kit.cwd, "page.html"), "utf8")).toContain('<div class="text">the answer</div>');
  });

  it("/tree before the first answer says nothing is recorded yet", async () => {
    const kit = await keel({});
    await kit.runtime.runCommand("/tree");
    expect(kit.eventsOf("notice").at(-1)).toEqual({
      level: "error",
      message: "/tree: nothing is recorded yet: the session file is created with the first prompt",
    });
  });
});
