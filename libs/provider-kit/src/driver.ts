/**
 * One reply over HTTP: send, retry what is worth retrying, read the SSE stream through a format decoder, and
 * end with exactly one `done` or `error` event. Never throws: every failure becomes the final event.
 */
import { type ModelInfo, type StreamEvent, type StreamOptions } from "@keel/extensions-api";
import { childController } from "@keel/extensions-api/sleep";
import { AssistantMessageBuilder } from "@keel/extensions-api/stream";
import { ProviderError, describeHttpError, describeNetworkError, errorDetail, shouldRetry } from "./errors.ts";
import { formatMs, planRetry, realClock, type Clock, type RetryPolicy } from "./retry.ts";
import { httpFetch, type HttpFetch, type HttpResponse } from "./http-request.ts";
import { newSseStats, readSse, type SseEvent, type SseStats } from "./sse.ts";
import { requestBody } from "./wire-memo.ts";

/**
 * A wire format's reading of the event stream. `push` returns the events to yield for one SSE event and
 * throws `ProviderError` for an error the server reported or data it cannot read; once it has returned the
 * builder's final event the stream is complete.
 */
export interface StreamDecoder {
  push(event: SseEvent): StreamEvent[];
  /** The event that should have ended the stream, for the "ended early" message (e.g. `message_stop`). */
  readonly finalEvent: string;
  /**
   * The body closed before the final event. Returns the events that finish the reply when what arrived is a
   * complete reply all the same (a server that never sends its end marker), or undefined: the stream ended early.
   */
  end?(): StreamEvent[] | undefined;
}

/** One request, ready to send. */
export interface HttpAttempt {
  /** For messages: `OpenAI`, `Anthropic`, or the settings-defined provider id. */
  label: string;
  url: string;
  headers: Record<string, string>;
  payload: unknown;
  model: ModelInfo;
  /** Where the key came from (`OPENAI_API_KEY`), for the 401 message. */
  keySource?: string;
  retry: RetryPolicy;
  createDecoder(builder: AssistantMessageBuilder): StreamDecoder;
  /** Returns the overflow error when an HTTP error body says the request did not fit the context window. */
  overflow?(status: number, detail: string): ProviderError | undefined;
}

/** Injection points for tests and benchmarks. */
export interface DriverDeps {
  clock?: Clock;
  /** How the request is sent; default `httpFetch` (node:http). The global `fetch` fits too. */
  fetch?: HttpFetch;
}

const ABORTED = "Aborted by the user.";

/** Streams one reply into `builder`; see the module comment. */
export async function* streamHttp(
  attempt: HttpAttempt,
  options: StreamOptions,
  builder: AssistantMessageBuilder,
  deps: DriverDeps = {},
): AsyncGenerator<StreamEvent> {
  const clock = deps.clock ?? realClock;
  const doFetch = deps.fetch ?? httpFetch;
  const { signal } = options;
  const maxAttempts = attempt.retry.maxRetries + 1;
  yield builder.start();

  for (let n = 1; ; n++) {
    if (signal.aborted) return yield builder.fail("aborted", ABORTED, attempt.model);
    let failure: ProviderError;
    const stats = newSseStats();
    // A server that goes quiet without closing would hold the run forever; silence is a network failure.
    let silent = false;
    // Stops the request on silence or with the run.
    const { controller: stop, release } = childController(signal);
    const silence = () => ((silent = true), stop.abort());
    const idle = idleWatch(attempt.retry.idleTimeoutMs, silence);
    // Bytes that carry nothing (`: ping` comments, `ping` events) keep the connection alive but not the run.
    let quiet: "bytes" | "events" = "bytes";
    const waiting = idleWatch(attempt.retry.eventTimeoutMs, () => ((quiet = "events"), silence()));
    try {
      let payload = attempt.payload;
      let headers = { ...attempt.headers };
      // The handler gets a copy: the payload holds items later requests reuse (wire-memo.ts).
      if (options.onPayload)
        ({ payload, headers } = await guarded("preparing the request", () =>
          options.onPayload!(structuredClone(payload), headers),
        ));
      const body = guarded("preparing the request", () => requestBody(payload));
      const response = await doFetch(attempt.url, {
        method: "POST",
        headers,
        body,
        signal: stop.signal,
      });
      const contentType = response.headers.get("content-type") ?? "";
      if (!response.ok || !response.body || contentType.includes("application/json")) {
        failure = await httpFailure(response, attempt);
      } else {
        const decoder = attempt.createDecoder(builder);
        let last: StreamEvent[] | undefined;
        for await (const event of readSse(response.body, stats, idle.touch)) {
          let events: StreamEvent[];
          try {
            events = decoder.push(event);
          } catch (error) {
            // A cut-off last event that does not read is a stream that ended early, not bad data.
            if (event.unterminated)
              throw new ProviderError(endedEarly(attempt.label, decoder.finalEvent, stats), { kind: "stream" });
            throw asProviderError(
              error,
              `reading a ${JSON.stringify(event.event ?? "data")} event from ${attempt.label}`,
            );
          }
          if (builder.isFinished) {
            last = events;
            break;
          }
          if (events.length > 0) waiting.touch();
          for (const out of events) yield out;
        }
        // A body that closed without the final event may still hold a complete reply (StreamDecoder.end).
        last ??= decoder.end?.();
        // The body is closed and the timer stopped before the final event: a consumer may stop pulling there.
        if (last && builder.isFinished) {
          idle.stop();
          waiting.stop();
          for (const out of last) yield out;
          return;
        }
        throw new ProviderError(endedEarly(attempt.label, decoder.finalEvent, stats), { kind: "stream" });
      }
    } catch (error) {
      if (signal.aborted) return yield builder.fail("aborted", ABORTED, attempt.model);
      if (silent) failure = silentFailure(attempt, stats, quiet);
      else if (error instanceof ProviderError) failure = error;
      else
        failure = isNetworkError(error)
          ? networkFailure(error, attempt.label, stats)
          : localFailure(error, attempt.label);
    } finally {
      idle.stop();
      waiting.stop();
      release();
    }

    const reachedUser = shownContent(builder);
    if (!failure.retryable || reachedUser || n >= maxAttempts) {
      const tries = failure.retryable && n > 1 && !reachedUser ? ` (gave up after ${n} attempts)` : "";
      const partial =
        reachedUser && failure.retryable
          ? " The partial reply was kept; it was not retried because output had already been shown."
          : "";
      const kind = failure.kind === "overflow" ? "context_overflow" : undefined;
      return yield builder.fail("error", `${failure.message}${tries}${partial}`, attempt.model, kind);
    }
    const plan = planRetry(n, failure.headers, attempt.retry, clock);
    if ("refuse" in plan)
      return yield builder.fail("error", `${failure.message} — not retried: ${plan.refuse}.`, attempt.model);
    options.onRetry?.({ attempt: n + 1, maxAttempts, delayMs: plan.wait, reason: failure.message });
    resetUsage(builder);
    await clock.sleep(plan.wait, signal);
  }
}

/** Runs `fn`; anything it throws that is not already a ProviderError becomes a non-retryable one. */
function guarded<T>(what: string, fn: () => T): T {
  try {
    const result = fn();
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        throw asProviderError(error, what);
      }) as T;
    }
    return result;
  } catch (error) {
    throw asProviderError(error, what);
  }
}

/** `error` as a ProviderError: itself, or a non-retryable one that says what failed. */
function asProviderError(error: unknown, what: string): ProviderError {
  if (error instanceof ProviderError) return error;
  return new ProviderError(`Failed while ${what}: ${(error as Error)?.message ?? String(error)}`, { kind: "stream" });
}

async function httpFailure(response: HttpResponse, attempt: HttpAttempt): Promise<ProviderError> {
  const body = await response.text().catch((error: unknown) => `(body unreadable: ${describeNetworkError(error)})`);
  const detail = errorDetail(body);
  const overflow = attempt.overflow?.(response.status, detail);
  if (overflow) return overflow;
  if (response.ok)
    return new ProviderError(
      `${attempt.label} answered HTTP ${response.status} ` +
        `with ${body ? `JSON instead of an event stream: ${detail}` : "no body"}`,
      { kind: "http", status: response.status },
    );
  const retryable = shouldRetry(response.status, response.headers);
  const message = describeHttpError(response.status, detail, {
    label: attempt.label,
    url: attempt.url,
    model: attempt.model.id,
    keySource: attempt.keySource,
  });
  return new ProviderError(message, { kind: "http", retryable, status: response.status, headers: response.headers });
}

/**
 * Whether something was shown: a block with text, thinking or a tool call's name. An empty text block a
 * server opened just before it failed shows nothing, so the attempt may still be retried.
 */
function shownContent(builder: AssistantMessageBuilder): boolean {
  return builder.message.content.some((b) =>
    b.type === "text" ? b.text !== "" : b.type === "thinking" ? b.thinking !== "" || Boolean(b.signature) : true,
  );
}

function resetUsage(builder: AssistantMessageBuilder): void {
  const { usage } = builder.message;
  Object.assign(usage, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  delete usage.cacheWrite1h;
  delete usage.reasoning;
}

/**
 * Whether `error` came from the network (fetch could not connect, the body broke off): undici reports those
 * as a TypeError with a `cause`, or an error carrying a system `code`. Anything else thrown here is keel's or
 * a plugin's own failure (a stack overflow, a bug) and is never retried as if the server were unreachable.
 */
function isNetworkError(error: unknown): boolean {
  const e = error as { name?: string; cause?: unknown; code?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (e.name === "AbortError" || e.name === "TimeoutError") return true;
  return (e.name === "TypeError" && e.cause !== undefined) || typeof e.code === "string";
}

function localFailure(error: unknown, label: string): ProviderError {
  return new ProviderError(
    `keel failed while talking to ${label} (a local error, not a network failure; not ` +
      `retried): ${describeNetworkError(error)}`,
    { kind: "stream" },
  );
}

function networkFailure(error: unknown, label: string, stats: SseStats): ProviderError {
  const where =
    stats.bytes > 0
      ? `the connection to ${label} broke mid-stream after ${stats.bytes} bytes (${stats.events} events)`
      : `could not reach ${label}`;
  return new ProviderError(`${where}: ${describeNetworkError(error)}`, { kind: "network", retryable: true });
}

function silentFailure(attempt: HttpAttempt, stats: SseStats, quiet: "bytes" | "events"): ProviderError {
  if (quiet === "events") {
    const what = stats.events > 0 || stats.bytes > 0 ? `only keep-alives (${stats.bytes} bytes)` : "nothing";
    return new ProviderError(
      `${attempt.label} sent ${what} and no content for ${formatMs(attempt.retry.eventTimeoutMs)} ` +
        `(providers.<id>.retry.eventTimeoutMs)`,
      { kind: "network", retryable: true },
    );
  }
  const when = stats.bytes > 0 ? `mid-stream after ${stats.bytes} bytes` : "after the request was sent";
  return new ProviderError(
    `${attempt.label} sent nothing for ${formatMs(attempt.retry.idleTimeoutMs)} ${when} ` +
      `(providers.<id>.retry.idleTimeoutMs)`,
    { kind: "network", retryable: true },
  );
}

/**
 * Calls `onIdle` when `touch` has not been called for `ms`. One timer re-armed by each touch (`refresh`), not a
 * new one per network chunk; once stopped, a touch does not start it again.
 */
function idleWatch(ms: number, onIdle: () => void): { touch: () => void; stop: () => void } {
  const timer = setTimeout(onIdle, ms).unref();
  let stopped = false;
  return {
    touch: () => void (stopped || timer.refresh()),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

function endedEarly(label: string, finalEvent: string, stats: SseStats): string {
  const got =
    stats.events === 0 ? "no events" : `${stats.events} events, the last was ${JSON.stringify(stats.lastEvent)}`;
  const ignored = stats.ignoredLines > 0 ? `, ${stats.ignoredLines} lines that were not SSE` : "";
  return (
    `The stream from ${label} ended before its final event (${finalEvent}): ` +
    `received ${stats.bytes} bytes, ${got}${ignored}.`
  );
}
