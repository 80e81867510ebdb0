/**
 * @keel/provider-kit — what keel's HTTP provider plugins share: SSE reading, the retrying stream driver,
 * error classification, key resolution and the `providers` settings section. A library, not a plugin.
 */
export * from "./sse.js";
export * from "./errors.js";
export * from "./retry.js";
export * from "./keys.js";
export * from "./settings.js";
export * from "./json.js";
export { streamHttp, type StreamDecoder, type HttpAttempt, type DriverDeps } from "./driver.js";
export { createHttpProvider, type WireFormat, type HttpProviderDeps } from "./http-provider.js";
export { openaiModels } from "./openai-models.js";
