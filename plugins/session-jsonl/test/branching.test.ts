import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { branchTo, buildContext } from "../src/context.ts";
import { loadBranch, loadSession } from "../src/load.ts";
import { SessionRecorder } from "../src/recorder.ts";
import { assistant, options, recordSeedsExample, tempDir, texts, user } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

describe("the session tree", () => {
  it(
    "rewinding to e4 and sending a message appends e7 under e4: the active branch is e1 e2 e3 e4 " +
      "e7 e8 and the old branch stays in the file",
    () => {
      const r = recordSeedsExample(temp.dir, "s1");
      r.close();

      const lines = readFileSync(r.path, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.id, l.parentId])).toEqual([
        ["s1", undefined],
        ["e1", null],
        ["e2", "e1"],
        ["e3", "e2"],
        ["e4", "e3"],
        ["e5", "e4"],
        ["e6", "e5"],
        ["e7", "e4"],
        ["e8", "e7"],
      ]);

      const session = loadSession(r.path);
      expect(session.leafId).toBe("e8");
      expect(branchTo(session.byId, session.leafId).map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4", "e7", "e8"]);
      expect(branchTo(session.byId, "e6").map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4", "e5", "e6"]);

      const fast = loadBranch(r.path);
      expect(fast.branch.map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4", "e7", "e8"]);
      expect(texts(buildContext(fast.branch).messages)).toEqual([
        "Read foo.py",
        "call:read",
        "result:contents of foo.py",
        "foo.py parses the config",
        "Explain bar.py instead",
        "bar.py starts the server",
      ]);
    },
  );

  it("creates the file with the first message, so the prompt is on disk before any reply", () => {
    const r = SessionRecorder.start(temp.dir, "s2", options());
    expect(r.created).toBe(false);
    r.recordMessage(user("hello"));
    expect(r.created).toBe(true);
    expect(loadSession(r.path).entries.map((e) => e.id)).toEqual(["e1"]);
    r.recordMessage({ ...assistant("partial"), stopReason: "error", errorMessage: "no network" });
    r.recordMessage(assistant("hi"));
    r.close();
    expect(loadSession(r.path).entries.map((e) => e.id)).toEqual(["e1", "e2", "e3"]);
  });

  it("records a model change only when the model differs from the previous reply", () => {
    const r = SessionRecorder.start(temp.dir, "s3", options());
    r.recordMessage(user("a"));
    r.recordMessage(assistant("one", [], "m1"));
    r.recordMessage(user("b"));
    r.recordMessage(assistant("two", [], "m1"));
    r.recordMessage(user("c"));
    r.recordMessage(assistant("three", [], "m2"));
    r.close();
    const changes = loadSession(r.path).entries.filter((e) => e.type === "model_change");
    expect(changes).toMatchObject([{ provider: "scripted", model: "m2" }]);
  });
});
