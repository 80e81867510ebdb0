/**
 * A damaged line anywhere in a session file loses that line and nothing else: the chain is joined around it,
 * the resumed history holds every other message, and what the model is sent is a valid conversation.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "@keel/extensions-api";
import { afterAll, describe, expect, it } from "vitest";
import { toModelContext } from "@keel/kernel";
import { loadBranch, loadSession } from "../src/load.ts";
import { SessionRecorder } from "../src/recorder.ts";
import { assistant, options, recordSeedsExample, tempDir, texts, toolResult, user } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

/** A finished session of 14 entries: a prompt, six read calls with their results, and an answer. */
function fourteen(): { path: string; lines: Buffer[]; messages: Message[] } {
  const r = SessionRecorder.start(join(temp.dir, "fourteen"), "s14", options());
  const messages: Message[] = [user("Summarise the six files")];
  for (let i = 1; i <= 6; i++)
    messages.push(
      assistant("", [{ id: `c${i}`, name: "read", args: { path: `f${i}.txt` } }]),
      toolResult(`c${i}`, "read", `content ${i}`),
    );
  messages.push(assistant("They are all short."));
  for (const message of messages) r.recordMessage(message);
  r.close();
  const lines = readFileSync(r.path)
    .toString("latin1")
    .split("\n")
    .slice(0, -1)
    .map((line) => Buffer.from(line, "latin1"));
  expect(lines).toHaveLength(15);
  return { path: r.path, lines, messages };
}

/** Writes `lines` with line `at` (1 = the first entry) replaced by `damage(line)`. */
function damagedCopy(name: string, lines: Buffer[], at: number, damage: (line: Buffer) => Buffer): string {
  const path = join(temp.dir, `${name}.jsonl`);
  writeFileSync(path, Buffer.concat(lines.flatMap((line, i) => [i === at ? damage(line) : line, Buffer.from("\n")])));
  return path;
}

function resume(path: string) {
  const { recorder, context, warnings } = SessionRecorder.resume(path, options(undefined, { newId: () => "next" }));
  return { recorder, context, warnings };
}

/** The checks every resumed history must pass: what the model is sent starts with the user, calls have results. */
function expectValidConversation(messages: readonly Message[]): void {
  const sent = toModelContext(messages);
  expect(sent[0]?.role).toBe("user");
  for (const [i, message] of sent.entries()) {
    if (message.role !== "toolResult") continue;
    const call = sent
      .slice(0, i)
      .reverse()
      .find((m) => m.role === "assistant");
    expect(
      call?.role === "assistant" && call.content.some((b) => b.type === "toolCall" && b.id === message.toolCallId),
    ).toBe(true);
  }
}

const GARBAGE = () => Buffer.from("{this line was damaged");
const NOT_UTF8 = () => Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x28, 0x7d]);

describe("a damaged line at any position of a 14-entry session", () => {
  const session = fourteen();
  const ids = session.messages.map((_, i) => `e${i + 1}`);

  for (const [kind, damage] of [
    ["garbage", GARBAGE],
    ["invalid UTF-8", NOT_UTF8],
  ] as const) {
    it(`(${kind}) loses only that line on resume, whichever line it is`, () => {
      for (let at = 1; at <= 14; at++) {
        const path = damagedCopy(`${kind}-${at}`, session.lines, at, damage);
        const { recorder, context, warnings } = resume(path);
        const kept = ids.filter((_, i) => i !== at - 1);
        const expected = session.messages.filter((_, i) => i !== at - 1);
        const shown = at === 1 ? context.messages.slice(1) : context.messages;
        expect(context.ids.slice(at === 1 ? 1 : 0), `line ${at}`).toEqual(kept);
        expect(texts(shown), `line ${at}`).toEqual(texts(expected));
        if (at === 1)
          expect(context.messages[0]).toMatchObject({
            role: "user",
            content: expect.stringContaining("could not be read from the session file"),
          });
        expectValidConversation(context.messages);
        expect(warnings.join("\n"), `line ${at}`).toMatch(/skipped an unreadable line at byte \d+/);
        expect(
          loadBranch(path).branch.map((e) => e.id),
          `fast read, line ${at}`,
        ).toEqual(kept);

        recorder.recordMessage(user("and now?"));
        recorder.close();
        const after = loadSession(path);
        expect(after.leafId).toBe("next");
        expect(after.byId.get("next")!.parentId).toBe(at === 14 ? "e13" : "e14");
      }
    });
  }

  it("keeps an entry whose parentId names no entry, joined to the one before it, at every position", () => {
    for (let at = 1; at <= 14; at++) {
      const path = damagedCopy(`parent-${at}`, session.lines, at, (line) =>
        Buffer.from(line.toString("utf8").replace(/"parentId":(null|"e\d+")/, '"parentId":"no-such-entry"')),
      );
      const { recorder, context, warnings } = resume(path);
      recorder.close();
      expect(context.ids, `line ${at}`).toEqual(ids);
      expect(texts(context.messages)).toEqual(texts(session.messages));
      expectValidConversation(context.messages);
      expect(warnings.join("\n")).toContain(
        `entry e${at} names a parent no-such-entry that is not an earlier readable entry`,
      );
    }
  });

  it("keeps a line with one invalid UTF-8 byte inside its text, the byte read as U+FFFD", () => {
    const path = damagedCopy("one-byte", session.lines, 7, (line) =>
      Buffer.from(line.toString("latin1").replace("content 3", "cont\xffnt 3"), "latin1"),
    );
    const { recorder, context, warnings } = resume(path);
    recorder.close();
    expect(context.ids).toEqual(ids);
    expect(texts(context.messages)[6]).toBe("result:cont\uFFFDnt 3");
    expect(warnings.join("\n")).toMatch(
      /the line at byte \d+ holds bytes that are not valid UTF-8; they were read as U\+FFFD/,
    );
  });

  it("never joins an entry to a parent that comes later in the file", () => {
    const path = damagedCopy("later-parent", session.lines, 5, (line) =>
      Buffer.from(line.toString("utf8").replace('"parentId":"e4"', '"parentId":"e9"')),
    );
    const { recorder, context } = resume(path);
    recorder.close();
    expect(context.ids).toEqual(ids);
  });
});

describe("a damaged line in a session with branches", () => {
  it("is followed through by the ids its start still shows, so the branch stays the one that was active", () => {
    const r = recordSeedsExample(join(temp.dir, "branches"), "b1");
    r.close();
    const lines = readFileSync(r.path, "utf8").split("\n");
    // e7 (the prompt of the active branch, under e4) keeps its ids but loses the rest.
    lines[7] = lines[7]!.slice(0, lines[7]!.indexOf('"timestamp"')) + "#damaged";
    writeFileSync(r.path, lines.join("\n"));
    expect(loadBranch(r.path).branch.map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4", "e8"]);
  });

  it("whose ids are gone too, continues at the entry before it: the nearest complete branch", () => {
    const r = recordSeedsExample(join(temp.dir, "branches2"), "b2");
    r.close();
    const lines = readFileSync(r.path, "utf8").split("\n");
    lines[7] = "garbage";
    writeFileSync(r.path, lines.join("\n"));
    const { recorder, context, warnings } = resume(r.path);
    recorder.close();
    expect(context.ids).toEqual(["e1", "e2", "e3", "e4", "e5", "e6", "e8"]);
    expect(warnings.join("\n")).toContain(
      "entry e8 names a parent e7 that is not an earlier readable entry (a damaged line?); it was " +
        "joined to e6, the readable entry before it",
    );
  });
});
