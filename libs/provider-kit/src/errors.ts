/**
 * Failures of one HTTP attempt, classified so the driver knows whether to retry and what to tell the user.
 */
import type { HeaderLookup } from "./http-request.ts";

export type FailureKind = "http" | "network" | "stream" | "overflow" | "config";

/**
 * A failure a provider reports. `retryable` failures are tried again while no content reached the user;
 * `headers` carry the server's retry hints. Thrown by decoders, caught by the driver — never by the loop.
 */
export class ProviderError extends Error {
  readonly kind: FailureKind;
  readonly retryable: boolean;
  readonly status?: number;
  readonly headers?: HeaderLookup;

  constructor(
    message: string,
    options: { kind: FailureKind; retryable?: boolean; status?: number; headers?: HeaderLookup },
  ) {
    super(message);
    this.name = "ProviderError";
    this.kind = options.kind;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.headers = options.headers;
  }
}

/** A request that did not fit the model's context window; the driver marks its reply `context_overflow`. */
export function overflowError(detail: string, status?: number): ProviderError {
  return new ProviderError(detail, { kind: "overflow", status });
}

/** Statuses worth another attempt: timeouts, conflicts, rate limits, server errors, overload (529). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `x-should-retry: true|false` overrides the status rule in both directions. */
export function shouldRetry(status: number, headers: HeaderLookup): boolean {
  const hint = headers.get("x-should-retry");
  if (hint === "true") return true;
  if (hint === "false") return false;
  return isRetryableStatus(status);
}

/** The `error.message` of a JSON error body (OpenAI and Anthropic both use it), else the body's start. */
export function errorDetail(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    const error = (parsed as { error?: unknown })?.error;
    if (typeof error === "string") return error;
    const message = (error as { message?: unknown } | undefined)?.message ?? (parsed as { message?: unknown })?.message;
    if (typeof message === "string" && message) return message;
  } catch {
    // not JSON: show the text itself
  }
  const text = body.trim().replace(/\s+/g, " ");
  return text.length > 300 ? `${text.slice(0, 300)}…` : text || "(empty body)";
}

/** What the user reads for an HTTP error that will not be retried. */
export function describeHttpError(
  status: number,
  detail: string,
  ctx: { label: string; url: string; model: string; keySource?: string },
): string {
  switch (status) {
    case 401:
      return (
        `${ctx.label} rejected the API key (HTTP 401: ${detail}). The key came ` +
        `from ${ctx.keySource ?? "no configured source"}; check that it is valid for ${ctx.url}.`
      );
    case 403:
      return (
        `${ctx.label} refused access (HTTP 403: ${detail}). The API key may lack permission ` +
        `for model ${ctx.model}.`
      );
    case 404:
      return (
        `${ctx.label} found nothing at ${ctx.url} (HTTP 404: ${detail}). Check the model id ` +
        `(${ctx.model}) and the base URL.`
      );
    case 400:
      return `${ctx.label} rejected the request (HTTP 400: ${detail}).`;
    default:
      return `${ctx.label} answered HTTP ${status}: ${detail}`;
  }
}

/** A short description of a network error, including undici's cause (`other side closed`, `ECONNREFUSED`). */
export function describeNetworkError(error: unknown): string {
  const err = error as { message?: string; cause?: { message?: string; code?: string } };
  const cause = err?.cause?.code ?? err?.cause?.message;
  const message = err?.message ?? String(error);
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
