/** The Responses API wire format, for `createHttpProvider`. */
import { overflowError, type WireFormat } from "@keel/provider-kit";
import { createResponsesDecoder } from "./decode.ts";
import { responsesPayload } from "./payload.ts";

const OVERFLOW = /context_length_exceeded|exceeds the context window|maximum context length/i;

export const responsesFormat: WireFormat = {
  label: "OpenAI Responses",
  builtinId: "openai-responses",
  path: "/responses",
  headers: (key): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {}),
  buildPayload: responsesPayload,
  createDecoder: createResponsesDecoder,
  overflow(status, detail, label) {
    return status >= 400 && status < 500 && OVERFLOW.test(detail) ? overflowError(`${label}: ${detail}`, status) : undefined;
  },
};
