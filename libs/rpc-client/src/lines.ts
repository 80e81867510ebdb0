/**
 * Splitting a byte stream into lines on LF (0x0A) only. Node's `readline` also ends a line at U+2028 and
 * U+2029, which JSON allows unescaped inside strings, so a prompt holding one would be cut in two. Bytes are
 * split before decoding, so a character split across chunks is whole again in its line. A trailing CR is
 * left in place: JSON.parse reads it as whitespace.
 */
export class LineSplitter {
  private pending: Buffer[] = [];

  /** Feeds a chunk; returns the lines it completed, without their LF. */
  push(chunk: Buffer | string): string[] {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    const lines: string[] = [];
    let start = 0;
    for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, start)) {
      this.pending.push(bytes.subarray(start, at));
      lines.push(Buffer.concat(this.pending).toString("utf8"));
      this.pending = [];
      start = at + 1;
    }
    if (start < bytes.length) this.pending.push(bytes.subarray(start));
    return lines;
  }

  /** What is left after the last LF when the stream ends (a last line without LF), if anything. */
  end(): string | undefined {
    const rest = Buffer.concat(this.pending).toString("utf8");
    this.pending = [];
    return rest.length > 0 ? rest : undefined;
  }
}
