import { appendFileSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { NAME_ENTRY } from "../src/format.ts";
import { freshMeta, latestSession, listSessions, readMeta } from "../src/meta.ts";
import { metaPathOf } from "../src/paths.ts";
import { SessionRecorder } from "../src/recorder.ts";
import { assistant, options, tempDir, user } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

function make(dir: string, id: string, prompt: string, turns = 1): SessionRecorder {
  const r = SessionRecorder.start(dir, id, options());
  for (let i = 0; i < turns; i++) {
    r.recordMessage(user(i === 0 ? prompt : `more ${i}`));
    r.recordMessage(assistant(`answer ${i}`));
  }
  return r;
}

describe("the session index", () => {
  it("lists sessions most recently used first with name, first prompt, entry count and size", () => {
    const dir = join(temp.dir, "list");
    const older = make(dir, "older", "fix the parser", 2);
    older.close();
    const newer = make(dir, "newer", "write docs");
    newer.append({ type: "custom", customType: NAME_ENTRY, data: { name: "docs day" } });
    newer.close();
    const past = new Date(Date.now() - 60_000);
    utimesSync(older.path, past, past);

    const list = listSessions(dir);
    expect(list.map((s) => [s.id, s.name, s.firstPrompt, s.entries])).toEqual([
      ["newer", "docs day", "write docs", 3],
      ["older", undefined, "fix the parser", 4],
    ]);
    expect(list[0]!.size).toBe(statSync(newer.path).size);
    expect(latestSession(dir)).toBe(newer.path);
  });

  it("is rebuilt from the file when missing", () => {
    const dir = join(temp.dir, "rebuild");
    const r = make(dir, "s", "hello", 3);
    r.close();
    rmSync(metaPathOf(r.path));
    expect(freshMeta(r.path)).toMatchObject({
      id: "s",
      cwd: "/work/project",
      entries: 6,
      firstPrompt: "hello",
      size: statSync(r.path).size,
    });
    expect(readMeta(r.path)).toMatchObject({ entries: 6 });
  });

  it("catches up by reading only the bytes appended after it was written", () => {
    const dir = join(temp.dir, "tail");
    const r = make(dir, "s", "hello");
    r.close();
    // Mark the stored record, so a full rescan would be visible (it would restore the real first prompt).
    const stored = JSON.parse(readFileSync(metaPathOf(r.path), "utf8"));
    writeFileSync(metaPathOf(r.path), JSON.stringify({ ...stored, firstPrompt: "MARK" }));
    appendFileSync(
      r.path,
      '{"type":"label","id":"x1","parentId":"e2","timestamp":"2026-01-01T00:00:00.000Z",' +
        '"targetId":"e1","label":"start"}\n',
    );
    expect(freshMeta(r.path)).toMatchObject({ firstPrompt: "MARK", entries: 3, size: statSync(r.path).size });
  });

  it("is rebuilt in full when the file became shorter than it says", () => {
    const dir = join(temp.dir, "shrunk");
    const r = make(dir, "s", "hello", 2);
    r.close();
    const lines = readFileSync(r.path, "utf8").split("\n");
    truncateSync(r.path, Buffer.byteLength(lines.slice(0, 3).join("\n") + "\n"));
    expect(freshMeta(r.path)).toMatchObject({ entries: 2, firstPrompt: "hello" });
  });

  it("never counts a torn last line", () => {
    const dir = join(temp.dir, "torn");
    const r = make(dir, "s", "hello");
    r.close();
    appendFileSync(r.path, '{"type":"mess');
    expect(freshMeta(r.path).entries).toBe(2);
  });
});
