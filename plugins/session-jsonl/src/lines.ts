/**
 * Reading a session file line by line, forwards or backwards, in fixed-size chunks, so a 100 MB file never
 * has to sit in memory as one string. Only complete lines (ending in "\n") are returned: bytes after the last
 * newline are a torn tail left by a crash, and no reader treats them as an entry.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export const CHUNK = 1 << 20;

/** One complete line without its newline, and the byte offset where it starts. */
export interface Line {
  offset: number;
  bytes: Buffer;
}

/** Reads exactly `length` bytes at `position` (fewer only at the end of the file). */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/** The offset just after the last newline of the file: where a torn tail (if any) starts. */
export function completeLength(fd: number, size: number): number {
  let pos = size;
  while (pos > 0) {
    const start = Math.max(0, pos - 64 * 1024);
    const buf = readAt(fd, start, pos - start);
    const nl = buf.lastIndexOf(10);
    if (nl >= 0) return start + nl + 1;
    pos = start;
  }
  return 0;
}

/** Complete lines from `from` (a line start) to `to` (a line end), oldest first. */
export function* forwardLines(fd: number, from: number, to: number, chunk = CHUNK): Generator<Line> {
  let pos = from;
  let carry: Buffer | undefined;
  let carryOffset = from;
  while (pos < to) {
    const buf = readAt(fd, pos, Math.min(chunk, to - pos));
    if (buf.length === 0) break;
    const data = carry ? Buffer.concat([carry, buf]) : buf;
    const dataOffset = carry ? carryOffset : pos;
    let start = 0;
    for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10, start)) {
      yield { offset: dataOffset + start, bytes: data.subarray(start, nl) };
      start = nl + 1;
    }
    carry = start < data.length ? data.subarray(start) : undefined;
    carryOffset = dataOffset + start;
    pos += buf.length;
  }
}

/** Complete lines ending at or before `end` (a line end), newest first. */
export function* backwardLines(fd: number, end: number, chunk = CHUNK): Generator<Line> {
  let pos = end;
  let carry: Buffer | undefined;
  while (pos > 0) {
    const start = Math.max(0, pos - chunk);
    const buf = readAt(fd, start, pos - start);
    const data = carry ? Buffer.concat([buf, carry]) : buf;
    // `data` ends with a newline; walk the newlines before it.
    let lineEnd = data.length - 1;
    for (
      let nl = lineEnd > 0 ? data.lastIndexOf(10, lineEnd - 1) : -1;
      nl >= 0;
      nl = lineEnd > 0 ? data.lastIndexOf(10, lineEnd - 1) : -1
    ) {
      yield { offset: start + nl + 1, bytes: data.subarray(nl + 1, lineEnd) };
      lineEnd = nl;
    }
    carry = data.subarray(0, lineEnd + 1);
    pos = start;
  }
  if (carry && carry.length > 0) yield { offset: 0, bytes: carry.subarray(0, carry.length - 1) };
}

/** Opens a file for reading, runs `fn` with its descriptor and size, and closes it. */
export function withFile<T>(path: string, fn: (fd: number, size: number) => T): T {
  const fd = openSync(path, "r");
  try {
    return fn(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}
