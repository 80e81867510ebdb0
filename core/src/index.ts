/**
 * @keel/core — the plugin host around the kernel (`@keel/kernel`): discovery, trust, settings, the runtime a
 * session is, and the CLI.
 */
export { KeelRuntime, type Distribution, type RuntimeOptions } from "./runtime/runtime.js";
export { readDistribution } from "./runtime/read-distribution.js";
export type { InlineCandidate } from "./host/plugin-record.js";
/** The host's own copy of the contract: the very module every plugin's `@keel/extensions-api` resolves to. */
export * as hostApi from "@keel/extensions-api";
