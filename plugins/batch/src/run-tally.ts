/**
 * What a task's result needs, gathered from the events its `keel -p --mode json` process prints, one JSON line
 * each: the session's id, the requests made, the usage of every reply, and how the run ended.
 */
import { emptyUsage, textOf, type Message, type RunEndReason, type Usage } from "@keel/extensions-api";

export interface RunEnding {
  reason: RunEndReason;
  finalText: string;
  errorMessage?: string;
}

export class RunTally {
  sessionId: string | undefined;
  /** The session's workspace as keel saw it (its real path). */
  cwd: string | undefined;
  turns = 0;
  readonly usage: Usage = emptyUsage();
  /** The last run's ending; a prompt naming a command may run several. */
  ending: RunEnding | undefined;

  /** Reads one line of output; lines that are not events are ignored (a plugin may print). */
  add(line: string): void {
    let event: { type?: unknown } & Record<string, unknown>;
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      return;
    }
    if (event.type === "session_start") {
      this.sessionId = event.sessionId as string;
      this.cwd = event.cwd as string;
    } else if (event.type === "turn_start") this.turns++;
    else if (event.type === "message_end") this.addUsage(event.message as Message);
    else if (event.type === "agent_end") {
      const messages = event.messages as Message[];
      const answer = [...messages].reverse().find((m) => m.role === "assistant");
      this.ending = {
        reason: event.reason as RunEndReason,
        finalText: answer ? textOf(answer) : "",
        ...(typeof event.errorMessage === "string" ? { errorMessage: event.errorMessage } : {}),
      };
    }
  }

  /** Every token billed so far: input, output and the cache's. */
  get tokens(): number {
    const u = this.usage;
    return u.input + u.output + u.cacheRead + u.cacheWrite;
  }

  private addUsage(message: Message): void {
    if (message.role !== "assistant") return;
    const u = this.usage;
    const add = message.usage;
    u.input += add.input;
    u.output += add.output;
    u.cacheRead += add.cacheRead;
    u.cacheWrite += add.cacheWrite;
    for (const key of ["input", "output", "cacheRead", "cacheWrite", "total"] as const) u.cost[key] += add.cost[key];
  }
}
