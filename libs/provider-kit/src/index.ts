/**
 * @keel/provider-kit — what keel's HTTP provider plugins share: SSE reading, the retrying stream driver,
 * error classification, key resolution and the `providers` settings section. A library, not a plugin.
 */
export * from "./sse.ts";
export * from "./errors.ts";
export * from "./retry.ts";
export * from "./keys.ts";
export * from "./settings.ts";
export * from "./json.ts";
export { streamHttp, type StreamDecoder, type HttpAttempt, type DriverDeps } from "./driver.ts";
export { createHttpProvider, type WireFormat, type HttpProviderDeps } from "./http-provider.ts";
export { openaiModels } from "./openai-models.ts";
