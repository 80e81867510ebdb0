/**
 * The run script's mark on stdout once the command's shell has exited (scripts.ts): a NUL, `keel-end-<tag>`, a
 * newline. Written after `wait`, it follows everything the command wrote before it ended (one pipe, in order),
 * so once it and the exit report are in, the output is whole, without waiting for the stream to go quiet. The
 * mark is taken out of the output; a chunk's end that could be its beginning is held back until the next chunk.
 */
export class EndMark {
  private readonly mark: Buffer;
  private held: Buffer = Buffer.alloc(0);
  /** Whether the mark has gone by. */
  seen = false;

  constructor(
    tag: string,
    private readonly onData: (chunk: Buffer) => void,
    private readonly onSeen: () => void,
  ) {
    this.mark = Buffer.from(`\0keel-end-${tag}\n`, "latin1");
  }

  push(chunk: Buffer): void {
    if (this.seen) return this.onData(chunk);
    const data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    const at = data.indexOf(this.mark);
    if (at >= 0) {
      this.held = Buffer.alloc(0);
      this.seen = true;
      const rest = Buffer.concat([data.subarray(0, at), data.subarray(at + this.mark.length)]);
      if (rest.length > 0) this.onData(rest);
      this.onSeen();
      return;
    }
    const keep = this.partialAtEnd(data);
    this.held = Buffer.from(data.subarray(data.length - keep));
    if (data.length > keep) this.onData(data.subarray(0, data.length - keep));
  }

  /** Hands on what was held back (the stream ended without the mark). */
  flush(): void {
    if (this.held.length > 0) this.onData(this.held);
    this.held = Buffer.alloc(0);
  }

  /** The length of the longest end of `data` that begins the mark (which starts with the NUL byte). */
  private partialAtEnd(data: Buffer): number {
    const from = Math.max(0, data.length - this.mark.length + 1);
    for (let at = data.indexOf(0, from); at >= 0; at = data.indexOf(0, at + 1)) {
      const tail = data.subarray(at);
      if (this.mark.subarray(0, tail.length).equals(tail)) return tail.length;
    }
    return 0;
  }
}
