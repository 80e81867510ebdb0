/**
 * Server-sent events from an HTTP body. One reader for every provider: bytes are decoded with a streaming
 * TextDecoder (a UTF-8 character split across network chunks decodes whole) and parsed by `eventsource-parser`.
 */
import { createParser } from "eventsource-parser";

/** One SSE event. `event` is the `event:` field when the server sent one. */
export interface SseEvent {
  event?: string;
  data: string;
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
 * Yields the events of an SSE byte stream as they complete. An event the stream cut off before its blank
 * line is dropped, as the SSE specification says; the caller notices the missing final event. `onChunk` runs
 * for every network chunk (idle timers).
 */
export async function* readSse(body: AsyncIterable<Uint8Array>, stats: SseStats = newSseStats(), onChunk?: () => void): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder("utf-8");
  let pending: SseEvent[] = [];
  const parser = createParser({
    onEvent(message) {
      pending.push(message.event === undefined ? { data: message.data } : { event: message.event, data: message.data });
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
}
