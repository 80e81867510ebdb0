import { type Message } from "@keel/extensions-api";
import { compactionSummaryMessage } from "@keel/extensions-api/compaction";
import { afterAll, describe, expect, it } from "vitest";
import { branchTo, buildContext } from "../src/context.ts";
import { loadBranch, loadSession } from "../src/load.ts";
import { SessionRecorder } from "../src/recorder.ts";
import { assistant, options, tempDir, texts, toolResult, user } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

/** Plays the host's side: a history array, message events, and compaction as the kernel does it. */
class Host {
  history: Message[] = [];
  constructor(readonly recorder: SessionRecorder) {}
  say(message: Message) {
    this.history.push(message);
    this.recorder.recordMessage(message);
  }
  compact(summary: string, firstKeptIndex: number) {
    this.history = [compactionSummaryMessage(summary), ...this.history.slice(firstKeptIndex)];
    this.recorder.recordCompaction(
      { reason: "manual", tokensBefore: 1000, tokensAfter: 100, summary, firstKeptIndex },
      this.history,
    );
  }
  turn(n: number) {
    this.say(user(`q${n}`));
    this.say(assistant("", [{ id: `c${n}`, name: "read", args: { path: `f${n}` } }]));
    this.say(toolResult(`c${n}`, "read", `r${n}`));
    this.say(assistant(`a${n}`));
  }
}

const session = (id: string) => new Host(SessionRecorder.start(temp.dir, id, options()));

function resumed(path: string): Message[] {
  const { recorder, context } = SessionRecorder.resume(path, options());
  recorder.close();
  return context.messages;
}

describe("resuming", () => {
  it("after a compaction continues from the summary and the kept messages", () => {
    const host = session("c1");
    host.turn(1);
    host.turn(2);
    host.turn(3);
    host.compact("S1", 8); // keeps turn 3
    host.turn(4);
    host.recorder.close();
    expect(texts(resumed(host.recorder.path))).toEqual([
      "compaction_summary",
      "q3",
      "call:read",
      "result:r3",
      "a3",
      "q4",
      "call:read",
      "result:r4",
      "a4",
    ]);
    expect(texts(resumed(host.recorder.path))).toEqual(texts(host.history));
    expect(resumed(host.recorder.path)[0]!.content as string).toContain("S1");
  });

  it("reads only from the first entry the latest compaction kept, not the whole file", () => {
    const host = session("c2");
    for (let i = 1; i <= 10; i++) host.turn(i);
    host.compact("S", 36);
    host.turn(11);
    host.recorder.close();
    const fast = loadBranch(host.recorder.path);
    expect(fast.partial).toBe(true);
    expect(fast.branch.map((e) => e.type === "message" && texts([e.message])[0])[0]).toBe("q10");
    expect(fast.branch).toHaveLength(4 + 1 + 4);
  });

  it("after repeated compactions uses only the latest summary", () => {
    const host = session("c3");
    host.turn(1);
    host.turn(2);
    host.compact("S1", 4);
    host.turn(3);
    host.compact("S2", 5); // keeps turn 3 (index 0 is S1, 1-4 turn 2)
    host.turn(4);
    host.recorder.close();
    const messages = resumed(host.recorder.path);
    expect(texts(messages)).toEqual(texts(host.history));
    expect(messages.filter((m) => m.role === "user" && m.kind === "compaction_summary")).toHaveLength(1);
    expect(messages[0]!.content as string).toContain("S2");
  });

  it("keeps a previous summary that a strategy chose to keep verbatim", () => {
    const host = session("c4");
    host.turn(1);
    host.turn(2);
    host.compact("S1", 4);
    host.turn(3);
    host.compact("S2", 0); // keeps S1 and everything after it
    host.recorder.close();
    expect(texts(resumed(host.recorder.path))).toEqual(texts(host.history));
    expect(host.history).toHaveLength(2 + 4 + 4);
  });

  it("after a compaction that kept nothing resumes with the summary alone", () => {
    const host = session("c5");
    host.turn(1);
    host.compact("everything", 4);
    host.recorder.close();
    expect(texts(resumed(host.recorder.path))).toEqual(["compaction_summary"]);
  });

  it(
    "gives the same history from the fast backward read as from the full parse, across random " +
      "branching and compaction",
    () => {
      let seed = 7;
      const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % n);
      const host = session("random");
      for (let step = 0; step < 400; step++) {
        const op = rand(10);
        if (op < 6 || host.history.length < 4) host.turn(step);
        else if (op < 8) {
          const cuts = host.history
            .map((m, i) => (m.role !== "toolResult" && !(m.role === "user" && m.kind) ? i : -1))
            .filter((i) => i > 0);
          host.compact(`S${step}`, cuts.length ? cuts[rand(cuts.length)]! : host.history.length);
        } else if (host.recorder.created) {
          const file = loadSession(host.recorder.path);
          const target = file.entries[rand(file.entries.length)]!;
          const context = buildContext(branchTo(file.byId, target.id));
          host.recorder.moveTo(target.id);
          host.recorder.adopt(context);
          host.history = context.messages;
        }
        if (step % 25 === 0 && host.recorder.created) {
          const file = loadSession(host.recorder.path);
          const full = buildContext(branchTo(file.byId, file.leafId)).messages;
          const fast = loadBranch(host.recorder.path);
          expect(texts(buildContext(fast.branch, { partial: fast.partial }).messages), `step ${step}`).toEqual(
            texts(full),
          );
        }
      }
      host.recorder.close();
      expect(texts(resumed(host.recorder.path))).toEqual(texts(host.history));
    },
  );
});
