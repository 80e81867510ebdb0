/**
 * The fast check beside zod: it may say "fits" only where zod accepts the value and returns it minus unknown keys,
 * and every decoder gives the same events and the same errors with it as with zod alone, on the recorded
 * streams and on every one-field corruption of their events.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z, type ModelInfo, type StreamEvent } from "@keel/extensions-api";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";
import {
  createAnthropicDecoder,
  createChatDecoder,
  createResponsesDecoder,
  readSse,
  withSchemaAlone,
  type SseEvent,
  type StreamDecoder,
} from "@keel/provider-kit";
import { request } from "@keel/provider-kit/conformance";
import { describe, expect, it } from "vitest";
import { fastCheck } from "../src/fast-check.ts";

const STREAMS = resolve(import.meta.dirname, "../../../test/fixtures/streams");

/** Values that stand in for a field: every JSON kind, and numbers zod's number or int refuses. */
const REPLACEMENTS: unknown[] = [null, 7, 1.5, 2 ** 53, -1, "x", "", true, [], [1], {}, { type: "x" }];

describe("fastCheck", () => {
  const Part = z.object({ type: z.string(), text: z.string().nullish() });
  const Sample = z.object({
    index: z.number().int().optional(),
    count: z.number().nullish(),
    flag: z.boolean().optional(),
    name: z.string(),
    body: z.union([z.string(), z.array(Part)]).nullish(),
    input: z.unknown().optional(),
    anything: z.unknown(),
    nested: z.object({ inner: z.object({ n: z.number().nullish() }).nullish() }).optional(),
    loose: z.object({ a: z.string() }).passthrough().optional(),
  });
  const valid = {
    name: "n",
    index: 2,
    count: 0.5,
    flag: false,
    body: [{ type: "text", text: "hi", extra: 1 }, { type: "thinking" }],
    input: { any: ["thing"] },
    anything: [null],
    nested: { inner: { n: null, more: "x" }, other: 1 },
    loose: { a: "b", c: "d" },
    unknown_key: { deep: true },
  };

  it("passes only what zod accepts, and zod's output is the value without its unknown keys", () => {
    const check = fastCheck(Sample)!;
    expect(check(valid)).toBe(true);
    let passed = 0;
    let refused = 0;
    for (const value of [valid, ...corruptions(valid), JSON.parse('{"name":"n","count":1e400}')]) {
      const parsed = Sample.safeParse(value);
      if (check(value)) {
        passed++;
        expect(parsed.success, JSON.stringify(value)).toBe(true);
        expect(value).toMatchObject(parsed.data as object);
      } else {
        refused++;
        // A refusal costs only speed, but the check should not refuse what zod accepts (arrays and numbers aside).
        if (parsed.success) expect.fail(`refused what zod accepts: ${JSON.stringify(value)}`);
      }
    }
    expect(passed).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(10);
  });

  it("refuses to check a schema it cannot read, and says so once", () => {
    for (const schema of [
      z.object({ a: z.string().min(1) }),
      z.object({ a: z.string() }).strict(),
      z.object({ a: z.string().default("x") }),
      z.object({ a: z.string().transform((s) => s.length) }),
      z.object({ a: z.number().positive() }),
      z.object({ a: z.string() }).refine(() => true),
      z.object({ a: z.coerce.number() }),
      z.object({ a: z.literal("x") }),
    ])
      expect(fastCheck(schema)).toBeUndefined();
    const schema = z.object({ a: z.string() });
    expect(fastCheck(schema)).toBe(fastCheck(schema));
  });
});

/** Error events of each format, with keys the schema does not name (the fast check keeps them, zod strips them). */
const ERROR_EVENTS: Record<string, string[]> = {
  openai: [
    '{"error":{"type":"server_error","code":"boom","param":"p"}}',
    '{"error":{"message":null,"code":42,"param":{"x":1}}}',
    '{"error":"overloaded","id":"x"}',
  ],
  "openai-responses": [
    '{"type":"error","error":{"code":"server_error","message":"went wrong","param":1}}',
    '{"type":"error","code":"rate_limit_exceeded","message":"slow down","extra":[1]}',
    '{"type":"response.failed","response":{"status":"failed","error":{"code":"c","message":"m","more":1}}}',
  ],
  anthropic: ['{"type":"error","error":{"type":"overloaded_error","message":"Overloaded","request_id":"r"}}'],
};

type Decoder = (b: AssistantMessageBuilder) => StreamDecoder;
const model = (id: string, provider: string): ModelInfo => ({ id, provider, contextWindow: 200_000, maxOutput: 8_192 });
const FORMATS: Record<string, Decoder> = {
  openai: (b) => createChatDecoder(b, request(model("gpt-4.1-mini", "openai")), "OpenAI"),
  "openai-responses": (b) => createResponsesDecoder(b, request(model("gpt-5-mini", "openai-responses")), "OpenAI"),
  anthropic: (b) => createAnthropicDecoder(b, request(model("claude-sonnet-4-5", "anthropic")), "Anthropic"),
};

async function eventsOf(bytes: Uint8Array): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSse(
    (async function* () {
      yield bytes;
    })(),
  ))
    events.push(event);
  return events;
}

/** What a decoder made of `events`, as text: each push's events, or the error that ended it. */
function transcript(decoder: Decoder, events: SseEvent[], schemaAlone: boolean): string[] {
  const b = new AssistantMessageBuilder("test", "model");
  const d = decoder(b);
  const lines: string[] = [];
  for (const event of events) {
    try {
      const out: StreamEvent[] = schemaAlone ? withSchemaAlone(() => d.push(event)) : d.push(event);
      lines.push(JSON.stringify(out.map(({ partial: _p, ...rest }: any) => rest)));
    } catch (error) {
      lines.push(`${(error as Error).name}: ${(error as Error).message} ${JSON.stringify(error)}`);
      break;
    }
    if (b.isFinished) break;
  }
  lines.push(JSON.stringify(b.message.content), JSON.stringify(b.message.usage), b.message.stopReason);
  return lines.map((line) => line.replace(/"timestamp":\d+/g, '"timestamp":0'));
}

describe("decoders with the fast check and with zod alone", () => {
  for (const [format, decoder] of Object.entries(FORMATS)) {
    const dir = join(STREAMS, format);
    const names = readdirSync(dir).filter((f) => f.endsWith(".sse"));
    it(`${format}: the same events and errors on ${names.length} recorded streams and their corruptions`, async () => {
      let compared = 0;
      for (const name of names) {
        const events = await eventsOf(new Uint8Array(readFileSync(join(dir, name))));
        expect(transcript(decoder, events, false), name).toEqual(transcript(decoder, events, true));
        for (const [i, event] of events.entries()) {
          let value: unknown;
          try {
            value = JSON.parse(event.data);
          } catch {
            continue; // `[DONE]`
          }
          const variants = [
            ...corruptions(value).map((v) => JSON.stringify(v)),
            "{not json",
            "1e400",
            event.data.replace(/:-?\d+(\.\d+)?/, ":1e400"),
            event.data.replace(/:-?\d+(\.\d+)?/g, ":1e400"),
          ];
          for (const data of variants) {
            const mutated = events.map((e, j) => (j === i ? { ...e, data } : e));
            const fast = transcript(decoder, mutated, false);
            const alone = transcript(decoder, mutated, true);
            if (JSON.stringify(fast) !== JSON.stringify(alone))
              expect(fast, `${name} event ${i}: ${data}`).toEqual(alone);
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(100);
    });
    it(`${format}: the same errors for error events with keys the schema does not name`, () => {
      for (const data of ERROR_EVENTS[format]!) {
        const events = [{ data }];
        const fast = transcript(decoder, events, false);
        expect(fast[0], data).toMatch(/^ProviderError: /);
        expect(fast, data).toEqual(transcript(decoder, events, true));
      }
    });
  }
});

/** Every value made by replacing or deleting one field of `value`, at any depth (the top level too). */
function corruptions(value: unknown): unknown[] {
  if (typeof value !== "object" || value === null) return REPLACEMENTS;
  const out: unknown[] = [...REPLACEMENTS];
  const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  for (const [key, field] of entries) {
    for (const changed of corruptions(field)) {
      const copy: any = Array.isArray(value) ? [...value] : { ...value };
      copy[key] = changed;
      out.push(copy);
    }
    if (!Array.isArray(value)) {
      const { [key as string]: _gone, ...rest } = value as Record<string, unknown>;
      out.push(rest);
    }
  }
  return out;
}
