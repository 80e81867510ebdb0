import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { SessionRecorder } from "../src/recorder.ts";
import { assistant, options, tempDir, user } from "./helpers.ts";

const temp = tempDir();
afterAll(() => temp.cleanup());

let n = 0;
/** A closed session file with a lock left behind by `owner`, last refreshed `ageMs` ago. */
function lockedSession(owner: { pid: number; host: string }, ageMs: number): string {
  const r = SessionRecorder.start(temp.dir, `s${++n}`, options());
  r.recordMessage(user("hi"));
  r.recordMessage(assistant("hello"));
  r.close();
  mkdirSync(`${r.path}.lock`);
  writeFileSync(`${r.path}.owner`, JSON.stringify({ ...owner, since: "2026-01-01T00:00:00.000Z", token: "t" }));
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(`${r.path}.lock`, when, when);
  return r.path;
}

describe("the write lock", () => {
  it("refuses a second writer while the holder keeps its lock fresh, naming the holder", () => {
    const path = lockedSession({ pid: 4242, host: "build-box" }, 0);
    const { recorder } = SessionRecorder.resume(path, options());
    expect(recorder.readOnly).toMatch(
      /is open in process 4242 on build-box.*read-only: nothing from now on is saved.*\/fork/,
    );
    recorder.recordMessage(user("lost"));
    recorder.close();
  });

  it("expires when its holder stopped refreshing it for lockStaleMs (a crash on another machine)", () => {
    const path = lockedSession({ pid: 4242, host: "build-box" }, 11_000);
    const { recorder } = SessionRecorder.resume(path, options());
    expect(recorder.readOnly).toBeUndefined();
    recorder.close();
  });

  it("is taken over at once when its holder on this machine is dead", () => {
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    const path = lockedSession({ pid: dead, host: hostname() }, 0);
    const { recorder } = SessionRecorder.resume(path, options());
    expect(recorder.readOnly).toBeUndefined();
    recorder.close();
  });

  it("when lost to another process, stops the writer and says so", async () => {
    const opts = options(undefined, { lock: { staleMs: 2_000 } });
    const r = SessionRecorder.start(temp.dir, "lost", opts);
    r.recordMessage(user("hi"));
    r.recordMessage(assistant("hello"));
    // Another process decided the lock was abandoned and took it: the directory is now someone else's.
    rmSync(`${r.path}.lock`, { recursive: true });
    mkdirSync(`${r.path}.lock`);
    // The holder notices at its next refresh (every staleMs / 2).
    for (let waited = 0; !r.readOnly && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.readOnly).toMatch(/can no longer be written \(the lock was lost: .*\); nothing from now on is saved/);
    expect(opts.warnings.join("\n")).toContain("can no longer be written");
    const size = readFileSync(r.path).length;
    r.recordMessage(user("not written"));
    expect(readFileSync(r.path).length).toBe(size);
    r.close();
  });

  it("is released on close, so the next writer gets it", () => {
    const r = SessionRecorder.start(temp.dir, "released", options());
    r.recordMessage(user("hi"));
    r.recordMessage(assistant("hello"));
    r.close();
    const first = SessionRecorder.resume(r.path, options()).recorder;
    expect(first.readOnly).toBeUndefined();
    expect(SessionRecorder.resume(r.path, options()).recorder.readOnly).toMatch(/is open in process/);
    first.close();
    const again = SessionRecorder.resume(r.path, options()).recorder;
    expect(again.readOnly).toBeUndefined();
    again.close();
  });
});
