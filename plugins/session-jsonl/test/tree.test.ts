import { afterAll, describe, expect, it } from "vitest";
import { loadSession } from "../src/load.ts";
import { renderTree, resolveEntry } from "../src/tree.ts";
import { recordSeedsExample, tempDir } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

const seedsExample = () => recordSeedsExample(temp.dir, `t${Math.random().toString(36).slice(2)}`);

describe("/tree rendering", () => {
  it("shows both branches under the branch point, marks the active one and the leaf", () => {
    const r = seedsExample();
    r.append({ type: "label", targetId: "e4", label: "explained" });
    r.close();
    const session = loadSession(r.path);
    expect(renderTree(session, session.leafId)).toBe(
      [
        "* e1 user: Read foo.py",
        "* e4 [explained] assistant: foo.py parses the config",
        "  ├─ e5 user: Now add tests for it",
        "  │  e6 assistant: Added tests",
        "* └─ e7 user: Explain bar.py instead",
        "*    e8 assistant: bar.py starts the server",
        '*    e9 label e4 "explained"  ← leaf',
      ].join("\n"),
    );
  });

  it("shows every entry with --all", () => {
    const r = seedsExample();
    r.close();
    const session = loadSession(r.path);
    const all = renderTree(session, session.leafId, { all: true });
    expect(all).toContain("e2 assistant: → read");
    expect(all).toContain("e3 tool result read: contents of foo.py");
  });
});

describe("naming an entry", () => {
  it("accepts an id, a unique id prefix, or a label, and says what to do otherwise", () => {
    const r = seedsExample();
    r.append({ type: "label", targetId: "e5", label: "tests" });
    r.append({ type: "label", targetId: "e5", label: null });
    r.append({ type: "label", targetId: "e6", label: "done" });
    r.close();
    const session = loadSession(r.path);
    expect(resolveEntry(session, "e7").id).toBe("e7");
    expect(resolveEntry(session, "done").id).toBe("e6");
    expect(() => resolveEntry(session, "tests")).toThrow(/no entry or label "tests".*\/tree lists them/);
    expect(() => resolveEntry(session, "e1")).not.toThrow(); // exact id wins over the prefix of e10, e11
    expect(() => resolveEntry(session, "e")).toThrow(/matches \d+ entries; give more of the id/);
  });
});
