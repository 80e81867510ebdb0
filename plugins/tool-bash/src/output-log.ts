/**
 * Where a command's output goes while it runs: counted, its recent tail kept in memory, and the whole of it
 * written to a log file once it grows past what the model will be shown. Memory stays bounded whatever the
 * command prints (`yes` included); the file is capped too, keeping the beginning, while the tail stays exact.
 *
 * The log lives in the session's data folder, which belongs to the host and not to the workspace, so it is
 * written with node:fs directly rather than through `ctx.ops` (a remote or sandboxed backend has no say there).
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export interface OutputLogOptions {
  /** Where the full output goes when it is needed. */
  path: string;
  /** Bytes of the most recent output kept in memory. */
  tailBytes: number;
  /** Output is held in memory up to this size before the log file is opened... */
  holdBytes: number;
  /** ...and the file stops growing here. */
  maxFileBytes: number;
  /** Open the file at once (background processes keep a log from the start). */
  eager?: boolean;
}

const NEWLINE = 0x0a;

export class OutputLog {
  totalBytes = 0;
  private newlines = 0;
  private lastByte = NEWLINE;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private fd: number | undefined;
  private fileBytes = 0;
  private started = false;
  private closed = false;

  constructor(private readonly options: OutputLogOptions) {
    if (options.eager) this.open();
  }

  /** Lines so far; a last line without a newline counts. */
  get totalLines(): number {
    return this.newlines + (this.lastByte === NEWLINE ? 0 : 1);
  }

  /** Bytes the log file left out because of its cap. */
  get fileDropped(): number {
    return this.started ? this.totalBytes - this.fileBytes : 0;
  }

  /** Where the log file is (or will be) written. */
  get path(): string {
    return this.options.path;
  }

  /** The file's path, once it exists. */
  get filePath(): string | undefined {
    return this.started ? this.options.path : undefined;
  }

  push(data: Uint8Array): void {
    const chunk = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (chunk.length === 0) return;
    this.totalBytes += chunk.length;
    this.lastByte = chunk[chunk.length - 1]!;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) this.newlines++;

    const copy = Buffer.from(chunk); // the caller may reuse its buffer
    this.tail.push(copy);
    this.tailSize += copy.length;
    while (this.tail.length > 1 && this.tailSize - this.tail[0]!.length >= this.options.tailBytes)
      this.tailSize -= this.tail.shift()!.length;

    if (this.closed) return;
    if (this.fd !== undefined) return this.write(copy);
    this.held.push(copy);
    this.heldBytes += copy.length;
    if (this.heldBytes > this.options.holdBytes) this.open();
  }

  /** The most recent output (at least `tailBytes` when there was that much), and where it starts. */
  recent(): { bytes: Buffer; start: number } {
    let bytes = Buffer.concat(this.tail, this.tailSize);
    if (bytes.length > this.options.tailBytes) bytes = bytes.subarray(bytes.length - this.options.tailBytes);
    return { bytes, start: this.totalBytes - bytes.length };
  }

  /** Output from byte `offset` on, as far as memory still holds it; `skipped` says how much is gone. */
  since(offset: number): { bytes: Buffer; skipped: number } {
    const { bytes, start } = this.recent();
    if (offset >= start) return { bytes: bytes.subarray(offset - start), skipped: 0 };
    return { bytes, skipped: start - offset };
  }

  /** Writes the log file (if `keep`, or if it was already started) and closes it. Returns its path, if any. */
  finish(keep: boolean): string | undefined {
    if (keep && this.fd === undefined && !this.closed) this.open();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.closed = true;
    this.held = [];
    return this.filePath;
  }

  private open(): void {
    mkdirSync(dirname(this.options.path), { recursive: true });
    this.fd = openSync(this.options.path, "w");
    this.started = true;
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const chunk of held) this.write(chunk);
  }

  // Synchronous writes on purpose: they cost microseconds per chunk and give natural back-pressure, since
  // the pipe is not read again until the chunk is on its way to disk.
  private write(chunk: Buffer): void {
    const room = this.options.maxFileBytes - this.fileBytes;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    writeSync(this.fd!, part);
    this.fileBytes += part.length;
  }
}
