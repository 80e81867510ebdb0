/** The Messages API wire format, for `createHttpProvider`. */
import { overflowError, type WireFormat } from "@keel/provider-kit";
import { createAnthropicDecoder } from "./decode.ts";
import { overflowDetail } from "./overflow.ts";
import { anthropicPayload } from "./payload.ts";

/** The API version keel speaks; sent on every request. */
export const ANTHROPIC_VERSION = "2023-06-01";

export const anthropicFormat: WireFormat = {
  label: "Anthropic",
  builtinId: "anthropic",
  path: "/messages",
  headers: (key): Record<string, string> => ({ "anthropic-version": ANTHROPIC_VERSION, ...(key ? { "x-api-key": key } : {}) }),
  buildPayload: anthropicPayload,
  createDecoder: createAnthropicDecoder,
  overflow(status, detail, label) {
    // 413 request_too_large: the body itself was over the size limit, which only a smaller context fixes.
    const found = status === 413 ? detail : status >= 400 && status < 500 ? overflowDetail(detail) : undefined;
    return found ? overflowError(`${label}: ${found}`, status) : undefined;
  },
};
