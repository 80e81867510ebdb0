/** `@keel/provider-kit/mock-llm`: the mock LLM server that speaks the three wire formats, for tests and benches. */
export { startMockLlm, formatOf, type MockLlm } from "./server.ts";
export type * from "./types.ts";
export { sseEvent } from "./sse.ts";
