/**
 * OutputLog: counts, a bounded tail in memory, and a log file that starts only when needed and stops at its cap.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OutputLog } from "../src/output-log.ts";

const dir = mkdtempSync(join(tmpdir(), "keel-output-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newLog = (options: Partial<ConstructorParameters<typeof OutputLog>[0]> = {}) =>
  new OutputLog({
    path: join(dir, `log-${++n}.log`),
    tailBytes: 100,
    holdBytes: 1000,
    maxFileBytes: 10_000,
    ...options,
  });
const bytes = (text: string) => new TextEncoder().encode(text);

describe("OutputLog", () => {
  it("counts bytes and lines, a last line without a newline included", () => {
    const log = newLog();
    log.push(bytes("a\nb\nc"));
    expect([log.totalBytes, log.totalLines]).toEqual([5, 3]);
    log.push(bytes("\n"));
    expect(log.totalLines).toBe(3);
  });

  it("writes no file while the output is held and the caller does not keep it", () => {
    const log = newLog();
    log.push(bytes("small\n"));
    expect(log.finish(false)).toBeUndefined();
    expect(existsSync(log.path)).toBe(false);
  });

  it("writes the held output when asked to keep it", () => {
    const log = newLog();
    log.push(bytes("one\n"));
    log.push(bytes("two\n"));
    expect(log.finish(true)).toBe(log.path);
    expect(readFileSync(log.path, "utf8")).toBe("one\ntwo\n");
  });

  it("starts the file once the output passes what it holds, and the file gets everything", () => {
    const log = newLog({ holdBytes: 10 });
    for (let i = 0; i < 20; i++) log.push(bytes(`line ${i}\n`));
    expect(log.filePath).toBe(log.path);
    log.finish(false);
    expect(readFileSync(log.path, "utf8")).toBe(Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join(""));
  });

  it("caps the file, keeping the beginning, and counts what it left out", () => {
    const log = newLog({ holdBytes: 0, maxFileBytes: 25 });
    for (let i = 0; i < 10; i++) log.push(bytes("0123456789"));
    log.finish(true);
    expect(readFileSync(log.path, "utf8")).toBe("0123456789012345678901234");
    expect(log.fileDropped).toBe(75);
  });

  it("keeps at least the last tailBytes in memory, and no more than it needs", () => {
    const log = newLog({ tailBytes: 100 });
    for (let i = 0; i < 50; i++) log.push(bytes("0123456789"));
    const { bytes: recent, start } = log.recent();
    expect(recent.length).toBe(100);
    expect(start).toBe(400);
  });

  it("returns the output since an offset, and says how much memory no longer holds", () => {
    const log = newLog({ tailBytes: 30 });
    for (let i = 0; i < 10; i++) log.push(bytes(`${i}`.repeat(10)));
    expect(Buffer.from(log.since(90).bytes).toString()).toBe("9999999999");
    const old = log.since(0);
    expect(old.skipped).toBe(70);
    expect(Buffer.from(old.bytes).toString()).toBe("777777777788888888889999999999");
  });

  it("copies each chunk, so a caller reusing its buffer cannot change what was logged", () => {
    const log = newLog();
    const chunk = bytes("abc");
    log.push(chunk);
    chunk.set(bytes("xyz"));
    expect(log.recent().bytes.toString()).toBe("abc");
  });
});
