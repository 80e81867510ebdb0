/**
 * The terminal's input as lines, one reader for the whole plugin: the trust question asked before the chat
 * starts, the chat's own lines and the questions plugins ask during a run all read from it, so on a pipe no
 * line is lost between them or read twice. A question waiting for its answer takes the next line before the
 * chat does; lines nobody waits for yet are kept in order.
 */
import { createInterface, type Interface } from "node:readline";

type Waiter = (line: string | undefined) => void;

export class LineInput {
  private reader: Interface | undefined;
  private readonly lines: string[] = [];
  private readonly questions: Waiter[] = [];
  private readonly chat: Waiter[] = [];
  private ended = false;

  /**
   * `stream` is the terminal's input, `process.stdin` unless given, looked up only when a line is first asked for:
   * building `process.stdin` on a stdin that is a file loads Node's file streams and readline, which a `-p` run never
   * reads.
   */
  constructor(private readonly stream?: NodeJS.ReadableStream) {}

  /** The next line, as the answer to a question; undefined at the end of input. */
  answer(): Promise<string | undefined> {
    return this.take(this.questions);
  }

  /** The next line for the chat; undefined at the end of input. */
  next(): Promise<string | undefined> {
    return this.take(this.chat);
  }

  /** Stops reading (the chat ended); waiting readers get undefined. */
  close(): void {
    this.reader?.close();
  }

  private take(queue: Waiter[]): Promise<string | undefined> {
    this.start();
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift());
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => queue.push(resolve));
  }

  private start(): void {
    if (this.reader) return;
    this.reader = createInterface({ input: this.stream ?? process.stdin, terminal: false });
    this.reader.on("line", (line) => {
      const waiter = this.questions.shift() ?? this.chat.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.reader.on("close", () => {
      this.ended = true;
      for (const waiter of [...this.questions.splice(0), ...this.chat.splice(0)]) waiter(undefined);
    });
  }
}
