/**
 * Server-sent events from an HTTP body. One reader for every provider: bytes are decoded with a streaming
 * TextDecoder (a UTF-8 character split across network chunks decodes whole) and parsed by `eventsource-parser`.
 */
import { createParser } from "eventsource-parser";

/** One SSE event. `event` is the `event:` field when the server sent one. */
export interface SseEvent {
  event?: string;
  data: string;
  /** The body ended before this event's blank line: it may be cut off (see `readSse`). */
  unterminated?: true;
}

/** What the reader saw, for error messages and benchmarks. */
export interface SseStats {
  bytes: number;
  events: number;
  /** Lines that were not SSE fields (ignored, as the SSE specification says). */
  ignoredLines: number;
  /** The name (or first characters of the data) of the last complete event. */
  lastEvent?: string;
}

export function newSseStats(): SseStats {
  return { bytes: 0, events: 0, ignoredLines: 0 };
}

/**
 * Yields the events of an SSE byte stream as they complete. An event still pending when the body ends (a
 * last `data: [DONE]` with no blank line after it, as some servers send) is dispatched too, marked
 * `unterminated`: whether the stream is complete is the final event's to say, not the framing's, and a
 * decoder that cannot read a cut-off event reports the stream as ended early. `onChunk` runs for every
 * network chunk (idle timers).
 */
export async function* readSse(
  body: AsyncIterable<Uint8Array>,
  stats: SseStats = newSseStats(),
  onChunk?: () => void,
): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder("utf-8");
  let pending: SseEvent[] = [];
  let ended = false;
  const parser = createParser({
    onEvent(message) {
      const event: SseEvent =
        message.event === undefined ? { data: message.data } : { event: message.event, data: message.data };
      if (ended) event.unterminated = true;
      pending.push(event);
    },
    onError() {
      stats.ignoredLines++;
    },
  });
  const drain = function* () {
    const ready = pending;
    pending = [];
    for (const event of ready) {
      stats.events++;
      stats.lastEvent = event.event ?? event.data.slice(0, 40);
      yield event;
    }
  };
  for await (const chunk of body) {
    stats.bytes += chunk.byteLength;
    onChunk?.();
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* drain();
  }
  parser.feed(decoder.decode());
  yield* drain();
  ended = true;
  // Two line ends complete any pending field and event; after a complete stream they dispatch nothing.
  parser.feed("\n\n");
  yield* drain();
}
