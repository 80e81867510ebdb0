/**
 * What real vendors were seen to send (issue 9), each as a regression test: inline `<think>` tags, Anthropic's
 * cache-write lifetimes, a nested Responses error code that must be retryable, a reset right after an empty
 * text block, a server that sends only keep-alives, and a local exception that must not pass for a network
 * failure. Streams are this repository's own, in the shapes those vendors use.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { textOf, type Provider } from "@keel/extensions-api";
import { thinkTagSplitter } from "@keel/provider-kit";
import { collect, fakeClock, request } from "@keel/provider-kit/conformance";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANTHROPIC } from "../../../plugins/provider-anthropic/src/vendor.ts";
import { OPENAI_RESPONSES } from "../../../plugins/provider-openai-responses/src/vendor.ts";
import { OPENAI } from "../../../plugins/provider-openai/src/vendor.ts";
import { STREAMS_DIR, replayFetch } from "../../../test/conformance/provider/recorded.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

const sse = (format: string, name: string) => new Uint8Array(readFileSync(join(STREAMS_DIR, format, `${name}.sse`)));

describe("inline <think> tags", () => {
  it("splits reasoning out of the text, with tags cut across deltas", () => {
    const split = thinkTagSplitter();
    const parts = ["<thi", "nk>\nThe user", " greets me.</th", "ink>\n\nHello", " <b>there</b>!"].flatMap((d) =>
      split.push(d),
    );
    parts.push(...split.end());
    const joined = (kind: string) =>
      parts
        .filter((p) => p.kind === kind)
        .map((p) => p.text)
        .join("");
    expect(joined("thinking")).toBe("\nThe user greets me.");
    expect(joined("text")).toBe("Hello <b>there</b>!");
  });

  it("is applied by the Chat Completions decoder when the model's thinkTags quirk is on", async () => {
    const body =
      ["<think>", "Plan: be brief.", "</think>", "\n\nHi!"]
        .map((t) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: t } }] })}\n\n`)
        .join("") + "data: [DONE]\n\n";
    const settings = {
      providers: {
        r1: {
          api: "openai",
          baseUrl: "http://127.0.0.1:9/v1",
          models: [{ id: "deepseek-r1", compat: { thinkTags: true } }, { id: "plain" }],
        },
      },
    };
    const [, r1] = kitProviders(OPENAI, settings, { env: {}, fetch: replayFetch([new TextEncoder().encode(body)]) });
    const [withTags, without] = r1!.models();
    const split = await collect(r1!, request(withTags!));
    expect(split.message.content).toEqual([
      { type: "thinking", thinking: "Plan: be brief." },
      { type: "text", text: "Hi!" },
    ]);
    const kept = await collect(r1!, request(without!));
    expect(textOf(kept.message)).toBe("<think>Plan: be brief.</think>\n\nHi!");
  });
});

describe("usage details", () => {
  it("prices Anthropic's 1-hour cache writes apart from 5-minute ones", async () => {
    const provider = kitProviders(
      ANTHROPIC,
      {},
      { env: { ANTHROPIC_API_KEY: "k" }, fetch: replayFetch([sse("anthropic", "cache-lifetimes")]) },
    )[0]!;
    const model = provider.models().find((m) => m.id === "claude-sonnet-4-5")!;
    const { message } = await collect(provider, request(model));
    // Sonnet 4.5: 5-minute writes 3.75 $/M (1.25× input), 1-hour writes 6 $/M (2× input).
    expect(message.usage.cost.cacheWrite).toBeCloseTo((1000 * 3.75 + 2000 * 6) / 1e6, 12);
  });

  it("counts xAI's reasoning tokens as billed output", async () => {
    const provider = kitProviders(
      OPENAI,
      {},
      { env: { OPENAI_API_KEY: "k" }, fetch: replayFetch([sse("openai", "reasoning-outside-completion")]) },
    )[0]!;
    const { message } = await collect(provider, request(provider.models()[0]!));
    expect(message.usage).toMatchObject({ output: 200, reasoning: 180 });
  });
});

describe("over HTTP against the mock server", () => {
  let llm: MockLlm;
  beforeAll(async () => {
    llm = await startMockLlm();
  });
  afterAll(async () => {
    await llm.close();
  });
  const at = (spec: typeof OPENAI, retry: Record<string, number> = {}, clock = fakeClock()): Provider =>
    kitProviders(
      spec,
      { providers: { [spec.id]: { baseUrl: `${llm.url}/v1`, apiKey: "k", retry } } },
      { env: {}, clock },
    )[0]!;

  it("retries a Responses error event whose retryable code is nested under error", async () => {
    const provider = at(OPENAI_RESPONSES);
    const error = { type: "server_error", code: "server_error", message: "The server had an error." };
    const nested = `event: error\ndata: ${JSON.stringify({ type: "error", sequence_number: 1, error })}\n\n`;
    llm.push({ raw: nested }, { reply: { text: "second try" } });
    const run = await collect(provider, request(provider.models()[0]!));
    expect(run.retries[0]!.reason).toBe(
      "OpenAI Responses reported an error in the stream (server_error): The server had an error.",
    );
    expect(textOf(run.message)).toBe("second try");
  });

  it("retries an Anthropic reset right after an empty text block started", async () => {
    const provider = at(ANTHROPIC);
    // message_start, then content_block_start of an empty text block: nothing shown yet.
    llm.push({ reply: { text: "lost" }, fault: { kind: "reset", afterEvents: 2 } }, { reply: { text: "second try" } });
    const run = await collect(provider, request(provider.models()[0]!));
    expect(run.retries).toHaveLength(1);
    expect(textOf(run.message)).toBe("second try");
  });

  it("bounds the wait when a server sends only keep-alive comments", async () => {
    const provider = at(OPENAI, { eventTimeoutMs: 300, maxRetries: 0 });
    llm.push({ reply: { text: "never" }, fault: { kind: "keepalive", afterEvents: 0, everyMs: 20 } });
    const run = await collect(provider, request(provider.models()[0]!));
    expect(run.message.stopReason).toBe("error");
    expect(run.message.errorMessage).toMatch(
      /^OpenAI sent only keep-alives \(\d+ bytes\) and no content for 300 ms \(providers.<id>.retry.eventTimeoutMs\)/,
    );
  });

  it("never reports a local exception as a network failure, and does not retry it", async () => {
    const provider = at(ANTHROPIC);
    const before = llm.requests.length;
    // A value the request body cannot be written from (JSON.stringify calls its toJSON, which throws).
    const unwritable = {
      toJSON() {
        throw new RangeError("metadata is not serialisable");
      },
    };
    const run = await collect(provider, request(provider.models()[0]!), {
      onPayload: async (payload, headers) => ({ payload: { ...(payload as object), metadata: unwritable }, headers }),
    });
    expect(run.message.errorMessage).toMatch(/^Failed while preparing the request: metadata is not serialisable/);
    expect(run.message.errorMessage).not.toMatch(/could not reach/);
    expect(run.retries).toEqual([]);
    expect(llm.requests.length).toBe(before);
  });

  it("does not retry an exception thrown inside the request that is not the network's", async () => {
    const provider = kitProviders(
      ANTHROPIC,
      {},
      {
        env: { ANTHROPIC_API_KEY: "k" },
        clock: fakeClock(),
        fetch: async () => {
          throw new RangeError("Invalid array length");
        },
      },
    )[0]!;
    const run = await collect(provider, request(provider.models()[0]!));
    expect(run.message.errorMessage).toBe(
      "keel failed while talking to Anthropic (a local error, not a network failure; not retried): " +
        "Invalid array length",
    );
    expect(run.retries).toEqual([]);
  });
});
