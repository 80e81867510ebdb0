/**
 * Replays the reference streams of `test/fixtures/streams/<format>/` through a provider: each one whole must
 * build its expected message, and split at every byte boundary must give the identical event sequence.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Provider } from "@keel/extensions-api";
import type { HttpProviderDeps } from "@keel/provider-kit";
import { describe, expect, it } from "vitest";
import type { WireFormatName } from "@keel/provider-kit/mock-llm";
import { collect, fakeClock, request, shape } from "@keel/provider-kit/conformance";

export const STREAMS_DIR = resolve(import.meta.dirname, "../../fixtures/streams");

interface Expected {
  stopReason: string;
  content: unknown[];
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
  errorMessage?: string;
}

/** A fetch that answers every request with `chunks` as an SSE body: the network without the sockets. */
export function replayFetch(chunks: Uint8Array[]): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
      { status: 200, headers: { "content-type": "text/event-stream" } },
    );
}

export function recordedStreamSuite(
  format: WireFormatName,
  create: (deps: HttpProviderDeps) => Provider,
  modelId: string,
): void {
  const dir = join(STREAMS_DIR, format);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".sse"))
    .map((f) => f.slice(0, -4));

  async function play(chunks: Uint8Array[]) {
    const provider = create({ fetch: replayFetch(chunks), clock: fakeClock() });
    const model = provider.models().find((m) => m.id === modelId)!;
    return collect(provider, request(model));
  }

  describe(`recorded ${format} streams`, () => {
    for (const name of names) {
      const bytes = new Uint8Array(readFileSync(join(dir, `${name}.sse`)));
      const expected = JSON.parse(readFileSync(join(dir, `${name}.expected.json`), "utf8")) as Expected;

      it(`${name}: builds the expected message`, async () => {
        const { message } = await play([bytes]);
        expect(message.stopReason).toBe(expected.stopReason);
        expect(message.content).toEqual(expected.content);
        const { cost: _cost, ...counts } = message.usage;
        expect(counts).toEqual(expected.usage);
        if (expected.errorMessage) expect(message.errorMessage).toContain(expected.errorMessage);
      });

      it(`${name}: split at every byte boundary gives the identical event sequence`, async () => {
        const whole = shape((await play([bytes])).events);
        for (let at = 1; at < bytes.length; at++) {
          const split = shape((await play([bytes.subarray(0, at), bytes.subarray(at)])).events);
          if (JSON.stringify(split) !== JSON.stringify(whole)) expect(split, `split at byte ${at}`).toEqual(whole);
        }
        const oneByteEach = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
        expect(shape((await play(oneByteEach)).events)).toEqual(whole);
      });
    }
  });
}
