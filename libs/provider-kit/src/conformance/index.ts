/**
 * @keel/provider-kit/conformance — the provider conformance suite (vitest) and the helpers it is built from,
 * for any provider plugin built on the kit:
 *
 * ```ts
 * // test/conformance.test.ts of a provider plugin
 * import { providerConformance } from "@keel/provider-kit/conformance";
 * providerConformance({ plugin: new URL("..", import.meta.url).pathname, provider: "acme", model: "acme-large",
 *   format: "openai", keyEnv: "ACME_API_KEY" });
 * ```
 */
export { providerConformance, type ConformanceSpec } from "./suite.ts";
export { activateProviderPlugin, importPlugin, type PluginUnderTest } from "./stand-in.ts";
export { collect, fakeClock, historyProblems, request, shape, WEATHER_TOOL, type Collected } from "./harness.ts";
