/**
 * The provider conformance suite: what every provider plugin built on the kit must do against the mock LLM
 * server in its own wire format — text, tool calls, thinking, abort, and each fault the server can inject.
 * The plugin is activated as the host would (its `keel.entry`), with settings that point its provider at the
 * mock server, and driven directly; a fake clock (installed with `installTestDeps`) records retry waits.
 *
 * ```ts
 * providerConformance({
 *   plugin: "/path/to/plugin", provider: "acme", model: "acme-large", format: "openai", keyEnv: "ACME_API_KEY",
 * });
 * ```
 */
import { textOf, toolCallsOf, type ModelInfo, type Provider } from "@keel/extensions-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Clock } from "../retry.ts";
import { installTestDeps } from "../http-provider.ts";
import { startMockLlm, type MockLlm, type MockTurn, type WireFormatName } from "../mock-llm/index.ts";
import { collect, fakeClock, historyProblems, request } from "./harness.ts";
import { activateProviderPlugin, type PluginUnderTest } from "./stand-in.ts";

export interface ConformanceSpec {
  /** The plugin folder (its package.json names the entry) or its definition. */
  plugin: PluginUnderTest;
  /** The provider id the plugin registers, and one of its models. */
  provider: string;
  model: string;
  /** The wire format the provider speaks; the mock server answers in it. */
  format: WireFormatName;
  /** The variable the provider reads its key from (the 401 and missing-key messages must name it). */
  keyEnv: string;
  /**
   * Settings that point the provider at the mock server's `baseUrl`. Default: the kit's convention,
   * `{ providers: { <provider>: { baseUrl: baseUrl + "/v1" } } }`.
   */
  settings?(baseUrl: string): Record<string, unknown>;
}

export function providerConformance(spec: ConformanceSpec): void {
  const settingsFor =
    spec.settings ?? ((baseUrl: string) => ({ providers: { [spec.provider]: { baseUrl: `${baseUrl}/v1` } } }));
  const keyed = { [spec.keyEnv]: "sk-conformance" };

  /** A fresh provider from the plugin, pointed at `url`, with `clock` and `env` for every request it makes. */
  async function create(
    url: string,
    clock: Clock,
    env: NodeJS.ProcessEnv = keyed,
  ): Promise<{ provider: Provider; model: ModelInfo }> {
    installTestDeps({ clock, env });
    const providers = await activateProviderPlugin(spec.plugin, settingsFor(url));
    const provider = providers.get(spec.provider);
    expect(
      provider,
      `the plugin registers provider ${spec.provider} (it registered: ${[...providers.keys()].join(", ") || "none"})`,
    ).toBeDefined();
    const model = provider!.models().find((m) => m.id === spec.model) as ModelInfo;
    expect(model, `model ${spec.model} is in the table`).toBeDefined();
    return { provider: provider!, model };
  }

  describe(`provider conformance: ${spec.provider} (${spec.format})`, () => {
    let llm: MockLlm;
    beforeAll(async () => {
      llm = await startMockLlm();
    });
    afterAll(async () => {
      installTestDeps(undefined);
      await llm.close();
    });

    /** Plays `turns` against a fresh provider with a fake clock; returns the run and what the server saw. */
    async function play(turns: MockTurn[], options: { signal?: AbortSignal; abortAfterText?: AbortController } = {}) {
      const before = llm.requests.length;
      llm.push(...turns);
      const clock = fakeClock();
      const { provider, model } = await create(llm.url, clock);
      const run = await collect(provider, request(model), {
        signal: options.signal,
        onEvent: (e) => {
          if (e.type === "text_delta") options.abortAfterText?.abort();
        },
      });
      const requests = llm.requests.slice(before);
      expect(llm.remaining(), "every scripted turn was used").toBe(0);
      expect(historyProblems(run.message)).toEqual([]);
      expect(run.payloadCalls, "onPayload runs once per HTTP attempt").toBe(requests.length);
      return { ...run, requests, waits: clock.waits, model };
    }

    it("streams a text reply and ends with stop", async () => {
      const run = await play([{ reply: { text: "Hello there, how can I help?", usage: { input: 12, output: 7 } } }]);
      expect(run.message.stopReason).toBe("stop");
      expect(textOf(run.message)).toBe("Hello there, how can I help?");
      expect(run.types.filter((t) => t === "text_delta").length).toBeGreaterThan(1);
      expect(run.types.slice(0, 2)).toEqual(["start", "text_start"]);
      expect(run.types.slice(-2)).toEqual(["text_end", "done"]);
      expect(run.message.usage.input).toBe(12);
      expect(run.message.usage.output).toBe(7);
      expect(run.message.usage.cost.total).toBeGreaterThan(0);
      expect(run.requests[0]!.body.model).toBe(spec.model);
      expect(run.requests[0]!.body.stream).toBe(true);
    });

    it("assembles one tool call from pieces", async () => {
      const run = await play([
        { reply: { toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }], chunk: 3 } },
      ]);
      expect(run.message.stopReason).toBe("tool_use");
      const [call] = toolCallsOf(run.message);
      expect(call).toMatchObject({ id: "call_1", name: "get_weather" });
      expect(JSON.parse(call!.arguments)).toEqual({ city: "Paris" });
      expect(run.types).toContain("toolcall_delta");
    });

    it("assembles several parallel tool calls in order", async () => {
      const cities = ["Paris", "Tokyo", "Lima"];
      const run = await play([
        {
          reply: {
            text: "Checking.",
            toolCalls: cities.map((city, i) => ({ id: `call_${i}`, name: "get_weather", arguments: { city } })),
          },
        },
      ]);
      const calls = toolCallsOf(run.message);
      expect(calls.map((c) => c.id)).toEqual(["call_0", "call_1", "call_2"]);
      expect(calls.map((c) => JSON.parse(c.arguments).city)).toEqual(cities);
      expect(textOf(run.message)).toBe("Checking.");
    });

    it("streams thinking before the answer", async () => {
      const run = await play([{ reply: { thinking: "The user greets me.", signature: "sig-123", text: "Hi!" } }]);
      expect(run.message.content.map((b) => b.type)).toEqual(["thinking", "text"]);
      expect(run.message.content[0]).toMatchObject({ type: "thinking", thinking: "The user greets me." });
      expect(run.types).toContain("thinking_delta");
    });

    it("ends with aborted and keeps the partial text when the signal fires mid-stream", async () => {
      const controller = new AbortController();
      const closedBefore = llm.clientClosed;
      const run = await play(
        [
          {
            reply: { text: "This reply never finishes because the server hangs." },
            fault: { kind: "hang", afterEvents: -4 },
          },
        ],
        { signal: controller.signal, abortAfterText: controller },
      );
      expect(run.message.stopReason).toBe("aborted");
      expect(textOf(run.message).length).toBeGreaterThan(0);
      await expect.poll(() => llm.clientClosed).toBe(closedBefore + 1);
    });

    it("ends with aborted when the signal fires during a retry wait", async () => {
      const controller = new AbortController();
      const before = llm.requests.length;
      llm.push({ status: 503 });
      const { provider, model } = await create(llm.url, { ...fakeClock(), sleep: async () => controller.abort() });
      const run = await collect(provider, request(model), { signal: controller.signal });
      expect(run.message.stopReason).toBe("aborted");
      expect(llm.requests.length - before).toBe(1);
    });

    it("retries a 429 after the retry-after seconds and succeeds", async () => {
      const run = await play([
        {
          status: 429,
          headers: { "retry-after": "2" },
          body: { error: { message: "Rate limited", type: "rate_limit_error" } },
        },
        { reply: { text: "ok" } },
      ]);
      expect(run.waits).toEqual([2000]);
      expect(run.retries).toEqual([
        { attempt: 2, maxAttempts: 4, delayMs: 2000, reason: expect.stringContaining("429") },
      ]);
      expect(textOf(run.message)).toBe("ok");
    });

    it("honours retry-after-ms and an HTTP-date retry-after", async () => {
      const now = fakeClock().now();
      const run = await play([
        { status: 429, headers: { "retry-after-ms": "1500" } },
        { status: 503, headers: { "retry-after": new Date(now + 3000).toUTCString() } },
        { reply: { text: "ok" } },
      ]);
      expect(run.waits).toEqual([1500, 3000]);
    });

    it("retries 500 and 529 with exponential backoff", async () => {
      const run = await play([
        { status: 500 },
        { status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
        { reply: { text: "ok" } },
      ]);
      // base 1000 ms doubled per retry, minus 25 % × random (0.5 in the fake clock)
      expect(run.waits).toEqual([875, 1750]);
      expect(run.message.stopReason).toBe("stop");
    });

    it("gives up after the last retry with the server's error", async () => {
      const run = await play(Array.from({ length: 4 }, () => ({ status: 500, body: { error: { message: "boom" } } })));
      expect(run.requests).toHaveLength(4);
      expect(run.message.stopReason).toBe("error");
      expect(run.message.errorMessage).toMatch(/HTTP 500: boom.*gave up after 4 attempts/);
    });

    it("fails at once when the server asks to wait longer than the cap", async () => {
      const run = await play([{ status: 429, headers: { "retry-after": "600" } }]);
      expect(run.requests).toHaveLength(1);
      expect(run.waits).toEqual([]);
      expect(run.message.errorMessage).toMatch(/wait 600 s \(retry-after: 600\), longer than the 60 s cap/);
    });

    it("obeys x-should-retry: false", async () => {
      const run = await play([{ status: 503, headers: { "x-should-retry": "false" } }]);
      expect(run.requests).toHaveLength(1);
      expect(run.message.stopReason).toBe("error");
    });

    it("does not retry a 401 and names the key variable", async () => {
      const run = await play([
        { status: 401, body: { error: { message: "invalid x-api-key", type: "authentication_error" } } },
      ]);
      expect(run.requests).toHaveLength(1);
      expect(run.message.errorMessage).toContain("HTTP 401: invalid x-api-key");
      expect(run.message.errorMessage).toContain(spec.keyEnv);
    });

    it("does not retry a 400, 403 or 404", async () => {
      for (const status of [400, 403, 404]) {
        const run = await play([{ status, body: { error: { message: `nope ${status}` } } }]);
        expect(run.requests).toHaveLength(1);
        expect(run.message.errorMessage).toContain(`HTTP ${status}: nope ${status}`);
        expect(run.message.errorKind).toBeUndefined();
      }
    });

    it("recognises a context overflow as a typed error", async () => {
      const body = {
        openai: {
          error: {
            message:
              "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        },
        "openai-responses": {
          error: {
            message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        },
        anthropic: {
          type: "error",
          error: { type: "invalid_request_error", message: "prompt is too long: 208310 tokens > 200000 maximum" },
        },
      }[spec.format];
      const run = await play([{ status: 400, body }]);
      expect(run.message).toMatchObject({ stopReason: "error", errorKind: "context_overflow" });
      expect(run.message.errorMessage).toMatch(/context (length|window)|prompt is too long/);
      expect(run.requests).toHaveLength(1);
    });

    it("recognises a context overflow reported inside the stream as the same typed error", async () => {
      const [message, errorType] = {
        openai: ["This model's maximum context length is 128000 tokens.", "invalid_request_error"],
        "openai-responses": ["Your input exceeds the context window of this model.", "context_length_exceeded"],
        anthropic: ["prompt is too long: 208310 tokens > 200000 maximum", "invalid_request_error"],
      }[spec.format];
      const run = await play([
        { reply: { text: "never shown" }, fault: { kind: "error_event", afterEvents: 0, message, errorType } },
      ]);
      expect(run.message).toMatchObject({ stopReason: "error", errorKind: "context_overflow" });
      expect(run.message.errorMessage).toContain(message);
    });

    it("retries a connection reset that came before any content", async () => {
      const run = await play([
        { reply: { text: "lost" }, fault: { kind: "reset", afterEvents: 1 } },
        { reply: { text: "second try" } },
      ]);
      expect(run.requests).toHaveLength(2);
      expect(run.retries[0]!.reason).toMatch(/broke mid-stream/);
      expect(textOf(run.message)).toBe("second try");
    });

    it("keeps the partial text and does not retry a reset after content reached the user", async () => {
      const run = await play([
        {
          reply: { text: "a reply that is cut off halfway through", chunk: 4 },
          fault: { kind: "reset", afterEvents: 6 },
        },
      ]);
      expect(run.requests).toHaveLength(1);
      expect(run.message.stopReason).toBe("error");
      expect(textOf(run.message).length).toBeGreaterThan(0);
      expect(run.message.errorMessage).toMatch(/broke mid-stream after \d+ bytes.*partial reply was kept/);
    });

    it("retries when nothing can be reached and then says so", async () => {
      const closed = await startMockLlm();
      const url = closed.url;
      await closed.close();
      const clock = fakeClock();
      const { provider, model } = await create(url, clock);
      const run = await collect(provider, request(model));
      expect(clock.waits).toHaveLength(3);
      expect(run.message.errorMessage).toMatch(/could not reach .*ECONNREFUSED.*gave up after 4 attempts/);
    });

    it("ignores lines that are not SSE fields", async () => {
      const run = await play([{ reply: { text: "clean despite garbage" }, fault: { kind: "garbage" } }]);
      expect(run.message.stopReason).toBe("stop");
      expect(textOf(run.message)).toBe("clean despite garbage");
    });

    it("ends with an error that quotes malformed JSON", async () => {
      const run = await play([{ reply: { text: "some text that streams for a while" }, fault: { kind: "malformed" } }]);
      expect(run.message.stopReason).toBe("error");
      expect(run.message.errorMessage).toMatch(/malformed JSON in a .* event: "\{\\"broken\\": "/);
    });

    it("ends with an error when the final event never arrives", async () => {
      const run = await play([{ reply: { text: "almost done" }, fault: { kind: "truncate" } }]);
      expect(run.message.stopReason).toBe("error");
      expect(run.message.errorMessage).toMatch(/ended before its final event/);
      expect(textOf(run.message)).toBe("almost done");
    });

    it("ends with the server's message on an in-stream error event", async () => {
      // After some text was shown, so the (retryable) error ends the reply instead of being retried.
      const run = await play([
        {
          reply: { text: "starting to answer", chunk: 4 },
          fault: {
            kind: "error_event",
            afterEvents: 6,
            message: "Internal failure while generating",
            errorType: "api_error",
          },
        },
      ]);
      expect(run.message.stopReason).toBe("error");
      expect(textOf(run.message).length).toBeGreaterThan(0);
      expect(run.message.errorMessage).toContain("Internal failure while generating");
    });

    it("reads a single 1 MB event", async () => {
      const big = "x".repeat(1024 * 1024);
      const run = await play([{ reply: { text: big, chunk: big.length } }]);
      expect(textOf(run.message)).toHaveLength(big.length);
    });

    it("reads a slow trickle one byte at a time, multi-byte characters included", async () => {
      const text = "naïve café — 日本語 🚀 done";
      const run = await play([{ reply: { text, chunk: 3 }, writeBytes: 1, writeDelayMs: 0 }]);
      expect(textOf(run.message)).toBe(text);
    });

    it("sends what onPayload returns", async () => {
      llm.push({ reply: { text: "ok" } });
      const { provider, model } = await create(llm.url, fakeClock());
      await collect(provider, request(model), {
        onPayload: async (payload, headers) => ({
          payload: { ...(payload as object), temperature: 0.123 },
          headers: { ...headers, "x-extra": "1" },
        }),
      });
      const seen = llm.requests.at(-1)!;
      expect(seen.body.temperature).toBe(0.123);
      expect(seen.headers["x-extra"]).toBe("1");
    });

    it("reports a missing key before any request, naming the variable", async () => {
      const { provider, model } = await create(llm.url, fakeClock(), {});
      expect(await provider.checkReady?.(model)).toContain(spec.keyEnv);
    });
  });
}
