/**
 * @keel/provider-kit — building blocks for provider plugins: the three wire formats keel speaks (OpenAI Chat
 * Completions, OpenAI Responses, Anthropic Messages) with their decoders and payload builders, one call to
 * register a compatible provider, the `providers` settings convention, SSE reading, the retrying stream
 * driver, error classification and key resolution. A library, not a plugin; plugins get the host's copy.
 */
export * from "./sse.ts";
export * from "./errors.ts";
export * from "./retry.ts";
export * from "./keys.ts";
export * from "./settings.ts";
export * from "./json.ts";
export { streamHttp, type StreamDecoder, type HttpAttempt, type DriverDeps } from "./driver.ts";
export { createHttpProvider, installTestDeps, type WireFormat, type HttpProviderDeps } from "./http-provider.ts";
export { WIRE_FORMATS, API_NAMES, type ApiName } from "./formats.ts";
export { registerCompatibleProvider, serveSettingsProviders, type ProviderHost } from "./compatible.ts";
export { openaiModels } from "./openai/models.ts";
export { chatCompat, type ChatCompat } from "./openai/compat.ts";
export { chatMessages, chatPayload } from "./openai/payload.ts";
export { createChatDecoder } from "./openai/decode.ts";
export { thinkTagSplitter, type TextPart } from "./think-tags.ts";
export { responsesInput, responsesPayload } from "./openai-responses/payload.ts";
export { createResponsesDecoder } from "./openai-responses/decode.ts";
export { anthropicMessages, anthropicPayload } from "./anthropic/payload.ts";
export { createAnthropicDecoder } from "./anthropic/decode.ts";
export { ANTHROPIC_VERSION } from "./anthropic/format.ts";
