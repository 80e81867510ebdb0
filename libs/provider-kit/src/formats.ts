/**
 * The wire formats the kit speaks, by the name settings, manifests and `registerCompatibleProvider` use in
 * `api`. One catalog: the settings schema, the manifest schema and the docs derive their list from it.
 */
import { anthropicFormat } from "./anthropic/format.ts";
import type { WireFormat } from "./http-provider.ts";
import { responsesFormat } from "./openai-responses/format.ts";
import { chatFormat } from "./openai/format.ts";

export const WIRE_FORMATS = {
  /** OpenAI Chat Completions (`POST /chat/completions`), and every server that copies it. */
  openai: chatFormat,
  /** OpenAI Responses (`POST /responses`, `store: false`). */
  "openai-responses": responsesFormat,
  /** Anthropic Messages (`POST /messages`). */
  anthropic: anthropicFormat,
} as const satisfies Record<string, WireFormat>;

export type ApiName = keyof typeof WIRE_FORMATS;
export const API_NAMES = Object.keys(WIRE_FORMATS) as [ApiName, ...ApiName[]];
