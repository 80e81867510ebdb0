/** Picks the renderer for a wire format and applies stream faults to the rendered events. */
import { renderAnthropic } from "./render-anthropic.ts";
import { renderOpenAI } from "./render-openai.ts";
import { renderResponses } from "./render-responses.ts";
import type { MockFault, MockReply, WireFormatName } from "./types.ts";

/** A reply as SSE events; the last `finalCount` events end the stream. */
export interface Rendered {
  events: string[];
  finalCount: number;
  /** The format's in-stream error event. */
  errorEvent(message: string, type?: string): string;
}

export function render(format: WireFormatName, reply: MockReply, model: string, n: number): Rendered {
  if (format === "openai") return renderOpenAI(reply, model, n);
  if (format === "openai-responses") return renderResponses(reply, model, n);
  return renderAnthropic(reply, model, n);
}

/** What to write, and what to do after: close normally, reset the socket, or hold the connection open. */
export interface Plan {
  body: string;
  then: "end" | "reset" | "hang" | { pingEveryMs: number };
}

const GARBAGE = ": keep-alive comment\n\nthis line is not an SSE field\nretry: not-a-number\n\n";

export function applyFault(rendered: Rendered, fault: MockFault | undefined): Plan {
  const events = [...rendered.events];
  if (!fault) return { body: events.join(""), then: "end" };
  switch (fault.kind) {
    case "reset":
      return { body: events.slice(0, fault.afterEvents).join(""), then: "reset" };
    case "hang":
      return { body: events.slice(0, fault.afterEvents).join(""), then: "hang" };
    case "keepalive":
      return { body: events.slice(0, fault.afterEvents).join(""), then: { pingEveryMs: fault.everyMs } };
    case "truncate":
      return { body: events.slice(0, events.length - rendered.finalCount).join(""), then: "end" };
    case "garbage":
      return { body: GARBAGE + events.join(GARBAGE), then: "end" };
    case "malformed": {
      const at = fault.at ?? Math.floor(events.length / 2);
      events[at] = events[at]!.replace(/data: .*\n/, 'data: {"broken": \n');
      return { body: events.join(""), then: "end" };
    }
    case "error_event":
      return {
        body: events.slice(0, fault.afterEvents).join("") + rendered.errorEvent(fault.message, fault.errorType),
        then: "end",
      };
  }
}
