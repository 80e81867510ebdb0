import { textOf } from "@keel/extensions-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "@keel/provider-kit/mock-llm";
import { collect, fakeClock, request } from "@keel/provider-kit/conformance";
import { OPENAI } from "../../../plugins/provider-openai/src/vendor.ts";
import { kitProviders } from "../../../test/support/kit-providers.ts";

describe("a server that goes quiet without closing", () => {
  let llm: MockLlm;
  beforeAll(async () => {
    llm = await startMockLlm();
  });
  afterAll(async () => {
    await llm.close();
  });

  function provider() {
    const settings = {
      providers: { openai: { baseUrl: `${llm.url}/v1`, apiKey: "sk-test", retry: { idleTimeoutMs: 150 } } },
    };
    const p = kitProviders(OPENAI, settings, { env: {}, clock: fakeClock() })[0]!;
    return { p, model: p.models().find((m) => m.id === "gpt-4.1-mini")! };
  }

  it("is retried when it went quiet before any content", async () => {
    const { p, model } = provider();
    llm.push({ reply: { text: "never" }, fault: { kind: "hang", afterEvents: 1 } }, { reply: { text: "second try" } });
    const run = await collect(p, request(model));
    // Under load the server may not even have sent its first event within 150 ms; either way nothing was shown.
    expect(run.retries[0]!.reason).toMatch(
      new RegExp(
        String.raw`^OpenAI sent nothing for 150 ms (mid-stream after \d+ bytes|after the request was sent) ` +
          String.raw`\(providers.<id>.retry.idleTimeoutMs\)$`,
      ),
    );
    expect(textOf(run.message)).toBe("second try");
  });

  it("ends with an error that keeps the partial text when it went quiet mid-reply", async () => {
    const { p, model } = provider();
    llm.push({ reply: { text: "a reply that stops halfway" }, fault: { kind: "hang", afterEvents: -4 } });
    const run = await collect(p, request(model));
    expect(run.message.stopReason).toBe("error");
    expect(run.message.errorMessage).toMatch(/^OpenAI sent nothing for 150 ms mid-stream after \d+ bytes/);
    expect(textOf(run.message).length).toBeGreaterThan(0);
    expect(run.retries).toEqual([]);
  });
});
