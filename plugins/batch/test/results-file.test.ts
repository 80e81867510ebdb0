import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emptyUsage } from "@keel/extensions-api";
import { tempDir } from "../../../test/support/plugin-fixtures.ts";
import type { TaskResult } from "../src/result.ts";
import { fileResults } from "../src/results-file.ts";

const result = (id: string): TaskResult => ({
  id,
  reason: "stop",
  finalText: `done ${id}`,
  usage: emptyUsage(),
  cost: 0,
  turns: 1,
  durationMs: 1,
});

describe("the results file", () => {
  it("knows the ids it has lines for, and writes one line per id", () => {
    const file = join(tempDir(), "out.jsonl");
    writeFileSync(file, `${JSON.stringify(result("a"))}\n`);
    const sink = fileResults(file, () => undefined);
    expect([...sink.finished]).toEqual(["a"]);
    expect(sink.write(result("a"))).toBe(false);
    expect(sink.write(result("b"))).toBe(true);
    expect(sink.write(result("b"))).toBe(false);
    const ids = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as TaskResult).id);
    expect(ids).toEqual(["a", "b"]);
  });

  it("reports a line cut short, runs its task again, and starts the next line on its own", () => {
    const file = join(tempDir(), "out.jsonl");
    writeFileSync(file, `${JSON.stringify(result("a"))}\n{"id":"b","reas`);
    const warnings: string[] = [];
    const sink = fileResults(file, (w) => warnings.push(w));
    expect([...sink.finished]).toEqual(["a"]);
    expect(warnings).toEqual([`${file}:2 is not a result line; its task, if any, runs again`]);
    sink.write(result("b"));
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[1]).toBe('{"id":"b","reas');
    expect((JSON.parse(lines[2]!) as TaskResult).id).toBe("b");
  });

  it("starts empty when the file does not exist yet", () => {
    const sink = fileResults(join(tempDir(), "new.jsonl"), () => undefined);
    expect(sink.finished.size).toBe(0);
  });
});
