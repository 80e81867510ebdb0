export { startMockLlm, formatOf, type MockLlm } from "./server.ts";
export type * from "./types.ts";
export { sseEvent } from "./sse.ts";
