import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadBranch, loadSession } from "../src/load.ts";
import { SessionRecorder } from "../src/recorder.ts";
import { assistant, options, tempDir, toolResult, user } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

/** A finished session of 9 entries with multi-byte text, and the byte offset where each line ends. */
function original(): { path: string; bytes: Buffer; lineEnds: number[] } {
  const r = SessionRecorder.start(join(temp.dir, "original"), "orig", options());
  r.recordMessage(user("Lies die Datei größe.txt ✓"));
  r.recordMessage(assistant("", [{ id: "c1", name: "read", args: { path: "größe.txt" } }]));
  r.recordMessage(toolResult("c1", "read", "Inhalt: äöü — 日本語"));
  r.recordMessage(assistant("Die Datei enthält Umlaute ✓"));
  r.recordMessage(user("und jetzt?"));
  r.recordMessage(assistant("", [{ id: "c2", name: "bash", args: { command: "echo ✓" } }]));
  r.recordMessage(toolResult("c2", "bash", "✓"));
  r.recordMessage(assistant("fertig — 完了"));
  r.close();
  const bytes = readFileSync(r.path);
  const lineEnds: number[] = [];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) lineEnds.push(i + 1);
  return { path: r.path, bytes, lineEnds };
}

describe("a session file cut at any byte", () => {
  it("loads every complete entry, and the next append is readable, for every cut inside the last three entries", () => {
    const { bytes, lineEnds } = original();
    const firstCut = lineEnds[lineEnds.length - 4]!; // start of the third-last entry line
    const cutFile = join(temp.dir, "cut.jsonl");
    for (let cut = firstCut; cut <= bytes.length; cut++) {
      writeFileSync(cutFile, bytes.subarray(0, cut));
      const complete = lineEnds.filter((end) => end <= cut).length - 1; // minus the header
      const expectedIds = Array.from({ length: complete }, (_, i) => `e${i + 1}`);

      const full = loadSession(cutFile);
      expect(
        full.entries.map((e) => e.id),
        `cut at byte ${cut}`,
      ).toEqual(expectedIds);
      expect(full.warnings, `cut at byte ${cut}`).toEqual([]);
      expect(
        loadBranch(cutFile).branch.map((e) => e.id),
        `cut at byte ${cut}`,
      ).toEqual(expectedIds);

      const { recorder } = SessionRecorder.resume(cutFile, options(undefined, { newId: () => "next" }));
      recorder.recordMessage(user("after the crash"));
      recorder.close();
      const after = loadSession(cutFile);
      expect(after.warnings, `append after cut at byte ${cut}`).toEqual([]);
      expect(after.entries.map((e) => e.id)).toEqual([...expectedIds, "next"]);
      expect(after.byId.get("next")!.parentId).toBe(expectedIds.at(-1) ?? null);
    }
  });
});

describe("an unreadable line", () => {
  it(
    "is skipped with a warning that says where, the chain is joined around it, and the file is " + "never rewritten",
    () => {
      const { path } = original();
      const damaged = join(temp.dir, "damaged.jsonl");
      copyFileSync(path, damaged);
      const text = readFileSync(damaged, "utf8").split("\n");
      text[3] = "{this is not json";
      writeFileSync(damaged, text.join("\n"));
      const before = readFileSync(damaged);

      const session = loadSession(damaged);
      expect(session.warnings).toHaveLength(2);
      expect(session.warnings[0]).toMatch(/skipped an unreadable line at byte \d+ \(not JSON\)/);
      expect(session.warnings[1]).toBe(
        "entry e4 names a parent e3 that is not an earlier readable entry (a damaged line?); it was " +
          "joined to e2, the readable entry before it",
      );
      expect(session.entries.map((e) => e.id)).toEqual(["e1", "e2", "e4", "e5", "e6", "e7", "e8"]);

      const { recorder, warnings, context } = SessionRecorder.resume(
        damaged,
        options(undefined, { newId: () => "next" }),
      );
      expect(warnings.join("\n")).toMatch(/skipped an unreadable line at byte \d+[\s\S]*entry e4 names a parent e3/);
      expect(context.ids).toEqual(["e1", "e2", "e4", "e5", "e6", "e7", "e8"]);
      recorder.recordMessage(user("more"));
      recorder.close();
      const after = readFileSync(damaged);
      expect(after.subarray(0, before.length).equals(before)).toBe(true);
    },
  );

  it("that parses but is not a valid entry is skipped with the field that is wrong", () => {
    const { path } = original();
    const damaged = join(temp.dir, "damaged-branch.jsonl");
    copyFileSync(path, damaged);
    const lines = readFileSync(damaged, "utf8").split("\n");
    lines[5] = lines[5]!.slice(0, 20) + "#" + lines[5]!.slice(21);
    writeFileSync(damaged, lines.join("\n"));
    const loaded = loadBranch(damaged);
    expect(loaded.warnings.join("\n")).toMatch(/skipped an unreadable line at byte \d+ \(id: /);
  });
});

describe("a torn last line", () => {
  it("is ignored by readers and trimmed back to the last newline before the next append", () => {
    const { path, bytes } = original();
    const torn = join(temp.dir, "torn.jsonl");
    copyFileSync(path, torn);
    appendFileSync(torn, '{"type":"message","id":"half","parentId":"e8","timest');
    expect(loadSession(torn).tornBytes).toBeGreaterThan(0);
    expect(loadSession(torn).entries).toHaveLength(8);

    const { recorder } = SessionRecorder.resume(torn, options(undefined, { newId: () => "e9" }));
    recorder.recordMessage(user("next"));
    recorder.close();
    const after = readFileSync(torn);
    expect(after.subarray(0, bytes.length).equals(bytes)).toBe(true);
    expect(after.subarray(bytes.length).toString()).toMatch(/^\{"type":"message","id":"e9","parentId":"e8",.*\n$/);
  });
});
