/**
 * When to try again and how long to wait: exponential backoff with jitter, unless the server said how long
 * (`retry-after-ms`, `retry-after` in seconds or as an HTTP date).
 */
import { z } from "@keel/extensions-api";
import { sleep } from "@keel/extensions-api/sleep";
import type { HeaderLookup } from "./http-request.ts";

export const RetrySettingsSchema = z
  .object({
    /** Retries after the first attempt. */
    maxRetries: z.number().int().min(0).max(20).default(3),
    /** The first backoff wait; doubled on each retry. */
    baseDelayMs: z.number().min(0).default(1000),
    /** The longest backoff wait. */
    maxDelayMs: z.number().min(0).default(30_000),
    /** A server asking to wait longer than this fails at once instead of stalling the run. */
    maxWaitMs: z.number().min(0).default(60_000),
    /** An attempt with no bytes for this long (before the headers or mid-stream) fails as a network error. */
    idleTimeoutMs: z.number().positive().default(600_000),
    /**
     * An attempt whose stream carries no content event for this long fails as a network error, though
     * keep-alives (`: ping` comments, `ping` events) still arrive: bounds the wait for the first and each next event.
     */
    eventTimeoutMs: z.number().positive().default(300_000),
  })
  .strict();

export type RetryPolicy = z.output<typeof RetrySettingsSchema>;
export const DEFAULT_RETRY: RetryPolicy = RetrySettingsSchema.parse({});

/** Time and randomness, injectable so tests assert on the waits instead of sleeping them. */
export interface Clock {
  now(): number;
  random(): number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep,
};

/** The wait the server asked for, in ms, or undefined when it gave no usable hint. */
export function serverWaitMs(
  headers: HeaderLookup | undefined,
  now: number,
): { ms: number; header: string } | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0)
    return { ms: Number(ms), header: `retry-after-ms: ${ms}` };
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  const header = `retry-after: ${after}`;
  if (/^\d+(\.\d+)?$/.test(after.trim())) return { ms: Number(after) * 1000, header };
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return { ms: Math.max(0, date - now), header };
}

/** Backoff before retry number `retry` (1-based): base·2^(retry−1), capped, minus up to 25 % jitter. */
export function backoffMs(retry: number, policy: RetryPolicy, random: number): number {
  const raw = Math.min(policy.baseDelayMs * 2 ** (retry - 1), policy.maxDelayMs);
  return Math.round(raw * (1 - 0.25 * random));
}

export type RetryPlan = { wait: number } | { refuse: string };

/** How long to wait before retry number `retry`, or why not to retry at all. */
export function planRetry(
  retry: number,
  headers: HeaderLookup | undefined,
  policy: RetryPolicy,
  clock: Clock,
): RetryPlan {
  const server = serverWaitMs(headers, clock.now());
  if (server) {
    if (server.ms > policy.maxWaitMs) {
      return {
        refuse:
          `the server asked to wait ${formatMs(server.ms)} (${server.header}), longer than ` +
          `the ${formatMs(policy.maxWaitMs)} cap (providers.<id>.retry.maxWaitMs); try again later`,
      };
    }
    return { wait: Math.round(server.ms) };
  }
  return { wait: backoffMs(retry, policy, clock.random()) };
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}
