/**
 * The run script's reports on the exec's stderr (scripts.ts, RUN_SCRIPT): `start <pid>` and `exit <status> <processes
 * left>`, one line each, and the session shell's `ready` (which its first command may still see). The command's own
 * output never goes there (its stderr is on stdout), so anything else on it is the script's shell complaining — an
 * image without the shell asked for, say — which is handed on as output for the model to see.
 */

export type ControlEvent =
  | { kind: "ready" }
  | { kind: "start"; pid: number }
  | { kind: "exit"; status: number; left: number }
  | { kind: "other"; text: Buffer };

export class ControlLines {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly onEvent: (event: ControlEvent) => void) {}

  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (let end = this.pending.indexOf(10); end >= 0; end = this.pending.indexOf(10)) {
      const line = this.pending.subarray(0, end + 1);
      this.pending = this.pending.subarray(end + 1);
      this.onEvent(parse(line));
    }
  }

  /** Hands on a last line without a newline. */
  flush(): void {
    if (this.pending.length > 0) this.onEvent({ kind: "other", text: this.pending });
    this.pending = Buffer.alloc(0);
  }
}

function parse(line: Buffer): ControlEvent {
  const text = line.toString("latin1");
  if (text === "ready\n") return { kind: "ready" };
  const start = /^start (\d+)\n$/.exec(text);
  if (start) return { kind: "start", pid: Number(start[1]) };
  const exit = /^exit (\d+) (\d+)\n$/.exec(text);
  if (exit) return { kind: "exit", status: Number(exit[1]), left: Number(exit[2]) };
  return { kind: "other", text: line };
}
