/**
 * A session's stream as sent: every event and question numbered in order (`seq`, from 1), kept as the text
 * sent, so a client that reconnects with the last number it saw gets exactly what followed. Bounded by count
 * and size, oldest first out; a client further behind than that is told it missed some (and reads the state).
 */

export interface LogLimits {
  events: number;
  bytes: number;
}

/** A client reconnecting misses seconds of a stream; a session held idle costs little. */
export const DEFAULT_LIMITS: LogLimits = { events: 20_000, bytes: 8 * 1024 * 1024 };

export class EventLog {
  private readonly texts: string[] = [];
  /** The seq of `texts[0]`. */
  private first = 1;
  private bytes = 0;

  constructor(private readonly limits: LogLimits = DEFAULT_LIMITS) {}

  /** The seq of the last message, 0 before any. */
  get last(): number {
    return this.first + this.texts.length - 1;
  }

  /** Numbers `message` with the next seq; returns its text as sent. */
  append(message: object): string {
    const seq = this.last + 1;
    const text = JSON.stringify({ ...message, seq });
    this.texts.push(text);
    this.bytes += text.length;
    while (this.texts.length > this.limits.events || (this.bytes > this.limits.bytes && this.texts.length > 1)) {
      this.bytes -= this.texts.shift()!.length;
      this.first++;
    }
    return text;
  }

  /** The texts after `seq`, or undefined when some of them are no longer kept (or `seq` was never sent). */
  after(seq: number): string[] | undefined {
    if (!Number.isInteger(seq) || seq < this.first - 1 || seq > this.last) return undefined;
    return this.texts.slice(seq - this.first + 1);
  }
}
