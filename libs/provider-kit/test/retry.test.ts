import { DEFAULT_RETRY, backoffMs, planRetry, serverWaitMs } from "@keel/provider-kit";
import { describe, expect, it } from "vitest";
import { fakeClock } from "@keel/provider-kit/conformance";

const h = (init: Record<string, string>) => new Headers(init);

describe("retry waits", () => {
  it("reads retry-after-ms before retry-after", () => {
    expect(serverWaitMs(h({ "retry-after-ms": "250", "retry-after": "9" }), 0)).toEqual({
      ms: 250,
      header: "retry-after-ms: 250",
    });
  });

  it("reads retry-after as seconds, fractions included", () => {
    expect(serverWaitMs(h({ "retry-after": "2" }), 0)?.ms).toBe(2000);
    expect(serverWaitMs(h({ "retry-after": "0.5" }), 0)?.ms).toBe(500);
  });

  it("reads retry-after as an HTTP date relative to now, never negative", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(serverWaitMs(h({ "retry-after": "Wed, 01 Jan 2025 00:00:07 GMT" }), now)?.ms).toBe(7000);
    expect(serverWaitMs(h({ "retry-after": "Tue, 31 Dec 2024 23:59:00 GMT" }), now)?.ms).toBe(0);
  });

  it("ignores hints it cannot read", () => {
    expect(serverWaitMs(h({ "retry-after": "soon" }), 0)).toBeUndefined();
    expect(serverWaitMs(h({ "retry-after-ms": "-5" }), 0)).toBeUndefined();
    expect(serverWaitMs(undefined, 0)).toBeUndefined();
  });

  it("doubles the backoff per retry up to the cap, less up to 25 % jitter", () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 1000, maxDelayMs: 5000 };
    expect([1, 2, 3, 4].map((n) => backoffMs(n, policy, 0))).toEqual([1000, 2000, 4000, 5000]);
    expect(backoffMs(1, policy, 1)).toBe(750);
  });

  it("refuses a server wait over the cap and says which header asked for it", () => {
    const plan = planRetry(1, h({ "retry-after": "120" }), { ...DEFAULT_RETRY, maxWaitMs: 30_000 }, fakeClock());
    expect(plan).toEqual({
      refuse: expect.stringContaining("wait 120 s (retry-after: 120), longer than the 30 s cap"),
    });
  });
});
