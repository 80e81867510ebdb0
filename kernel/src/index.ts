/**
 * @keel/kernel — the agent loop, the event bus and the hooks, and nothing else: it imports only the contract
 * (`@keel/extensions-api`), tapable and mitt (kernel/test/boundary.test.ts). Layered bus → hooks → loop, none
 * reaching upward. The host (`@keel/core`) builds a runtime around it and uses only what this file exports.
 */
export { EventBus, KERNEL, errorText } from "./bus/event-bus.js";
export { HookBus, type HookFailure } from "./hooks/hook-bus.js";
export { runWithDeadline } from "./hooks/timeout.js";
export { Agent, type AgentDeps } from "./loop/agent.js";
export { toModelContext } from "./loop/history.js";
export { requestOptions, streamReply } from "./loop/stream-reply.js";
export { presetJsonSchema, validate, type ActiveTool } from "./loop/tool-calls.js";
export { processMs, trace } from "./trace.js";
