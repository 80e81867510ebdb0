export { startMockLlm, formatOf, type MockLlm } from "./server.js";
export type * from "./types.js";
export { sseEvent } from "./sse.js";
