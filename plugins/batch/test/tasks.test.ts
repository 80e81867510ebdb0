import { describe, expect, it } from "vitest";
import { parseTasks } from "../src/task.ts";

const bytes = (lines: string[]) => new TextEncoder().encode(lines.join("\n"));
const task = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, prompt: "go", workspace: "w", ...extra });

describe("the tasks file", () => {
  it("reads every task with its line number, skipping blank lines", () => {
    const { tasks, problems } = parseTasks(bytes([task("a"), "", "  ", task("b"), ""]), "tasks.jsonl");
    expect(problems).toEqual([]);
    expect(tasks.map((t) => [t.line, t.task.id])).toEqual([
      [1, "a"],
      [4, "b"],
    ]);
  });

  it("names a line that is not JSON and keeps the other tasks", () => {
    const { tasks, problems } = parseTasks(bytes([task("a"), "{not json", task("b")]), "t.jsonl");
    expect(tasks.map((t) => t.task.id)).toEqual(["a", "b"]);
    expect(problems).toEqual([expect.stringMatching(/^t\.jsonl:2: is not JSON \(/)]);
  });

  it("names the key of a line that is not a task", () => {
    const { problems } = parseTasks(
      bytes([
        JSON.stringify({ id: "a", workspace: "w" }),
        task("b", { promt: "typo" }),
        task("c", { budget: { seconds: -1 } }),
        task("d e"),
      ]),
      "t.jsonl",
    );
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^t\.jsonl:1: is not a task: "prompt": /);
    expect(problems[1]).toMatch(/^t\.jsonl:2: is not a task: .*promt/);
    expect(problems[2]).toMatch(/^t\.jsonl:3: is not a task: "budget\.seconds": /);
    expect(problems[3]).toMatch(/^t\.jsonl:4: is not a task: "id": must have no spaces and no slashes/);
  });

  it("refuses a second task with an id already used, naming the first line", () => {
    const { tasks, problems } = parseTasks(bytes([task("a"), task("b"), task("a")]), "t.jsonl");
    expect(tasks.map((t) => t.line)).toEqual([1, 2]);
    expect(problems).toEqual([expect.stringMatching(/^t\.jsonl:3: the id "a" is already line 1's/)]);
  });

  it("refuses a line that is not UTF-8 without losing its neighbours", () => {
    const good = new TextEncoder().encode(`${task("a")}\n`);
    const bad = Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]);
    const all = new Uint8Array([...good, ...bad, ...new TextEncoder().encode(task("b"))]);
    const { tasks, problems } = parseTasks(all, "t.jsonl");
    expect(tasks.map((t) => t.task.id)).toEqual(["a", "b"]);
    expect(problems).toEqual(["t.jsonl:2: is not UTF-8 text"]);
  });

  it("refuses git arguments git would read as options", () => {
    const { problems } = parseTasks(
      bytes([
        task("a", { workspace: { git: "--upload-pack=touch /tmp/x", ref: "main" } }),
        task("b", { workspace: { git: "repo", ref: "--output=/tmp/x" } }),
      ]),
      "t.jsonl",
    );
    expect(problems).toHaveLength(2);
    for (const problem of problems) expect(problem).toContain("must not start with '-'");
  });
});
