/** The Chat Completions wire format, for `createHttpProvider`. */
import { overflowError, type WireFormat } from "@keel/provider-kit";
import { createChatDecoder } from "./decode.js";
import { overflowDetail } from "./overflow.js";
import { chatPayload } from "./payload.js";

export const chatFormat: WireFormat = {
  label: "OpenAI",
  builtinId: "openai",
  path: "/chat/completions",
  headers: (key): Record<string, string> => (key ? { authorization: `Bearer ${key}` } : {}),
  buildPayload: chatPayload,
  createDecoder: createChatDecoder,
  overflow(status, detail, label) {
    const found = status >= 400 && status < 500 ? overflowDetail(detail) : undefined;
    return found ? overflowError(`${label}: ${found}`, status) : undefined;
  },
};
