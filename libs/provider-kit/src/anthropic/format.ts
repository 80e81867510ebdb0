/** The Messages API wire format, for `createHttpProvider` (by name in `formats.ts`). */
import { overflowError } from "../errors.ts";
import { type WireFormat } from "../http-provider.ts";
import { createAnthropicDecoder } from "./decode.ts";
import { overflowDetail } from "./overflow.ts";
import { anthropicPayload } from "./payload.ts";

/** The API version keel speaks; sent on every request. */
export const ANTHROPIC_VERSION = "2023-06-01";

export const anthropicFormat: WireFormat = {
  // As the official SDK and Claude Code read ANTHROPIC_BASE_URL: the base is the host (`/v1` is added);
  // a base that already ends in `/v1`, as keel's settings have always written it, works too.
  url: (baseUrl) => `${baseUrl}${/\/v1$/.test(baseUrl) ? "" : "/v1"}/messages`,
  headers: (key): Record<string, string> => ({
    "anthropic-version": ANTHROPIC_VERSION,
    ...(key ? { "x-api-key": key } : {}),
  }),
  buildPayload: anthropicPayload,
  createDecoder: createAnthropicDecoder,
  overflow(status, detail, label) {
    // 413 request_too_large: the body itself was over the size limit, which only a smaller context fixes.
    const found = status === 413 ? detail : status >= 400 && status < 500 ? overflowDetail(detail) : undefined;
    return found ? overflowError(`${label}: ${found}`, status) : undefined;
  },
};
