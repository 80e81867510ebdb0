/** The Responses API wire format, for `createHttpProvider` (by name in `formats.ts`). */
import { overflowError } from "../errors.ts";
import { type WireFormat } from "../http-provider.ts";
import { createResponsesDecoder } from "./decode.ts";
import { responsesPayload } from "./payload.ts";

const OVERFLOW = /context_length_exceeded|exceeds the context window|maximum context length/i;

export const responsesFormat: WireFormat = {
  url: (baseUrl) => `${baseUrl}/responses`,
  headers: (key): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {}),
  buildPayload: responsesPayload,
  createDecoder: createResponsesDecoder,
  overflow(status, detail, label) {
    return status >= 400 && status < 500 && OVERFLOW.test(detail)
      ? overflowError(`${label}: ${detail}`, status)
      : undefined;
  },
};
