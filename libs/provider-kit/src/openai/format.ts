/** The Chat Completions wire format, for `createHttpProvider` (by name in `formats.ts`). */
import { overflowError } from "../errors.ts";
import { type WireFormat } from "../http-provider.ts";
import { createChatDecoder } from "./decode.ts";
import { overflowDetail } from "./overflow.ts";
import { chatPayload } from "./payload.ts";

export const chatFormat: WireFormat = {
  url: (baseUrl) => `${baseUrl}/chat/completions`,
  headers: (key): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {}),
  buildPayload: chatPayload,
  createDecoder: createChatDecoder,
  overflow(status, detail, label) {
    const found = status >= 400 && status < 500 ? overflowDetail(detail) : undefined;
    return found ? overflowError(`${label}: ${found}`, status) : undefined;
  },
};
