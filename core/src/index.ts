/**
 * @keel/core — the kernel (agent loop, event bus, hooks) and the plugin host.
 */
export { EventBus } from "./bus/event-bus.js";
export { HookBus } from "./hooks/hook-bus.js";
export { Agent, type AgentDeps, type LoopLimits } from "./loop/agent.js";
export { toModelContext } from "./loop/history.js";
export { KeelRuntime, type Distribution, type RuntimeOptions } from "./runtime/runtime.js";
export { readDistribution, distributionHome } from "./runtime/distribution.js";
export { PluginHost } from "./host/plugin-host.js";
export type { InlineCandidate } from "./host/plugin-record.js";
export { Registry } from "./registry/registry.js";
export { main } from "./cli/main.js";
/** The host's own copy of the contract: the very module every plugin's `@keel/extensions-api` resolves to. */
export * as hostApi from "@keel/extensions-api";
