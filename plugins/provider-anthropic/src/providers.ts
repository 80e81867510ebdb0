/** The providers this plugin serves: `anthropic` and every settings entry with `"api": "anthropic"`. */
import type { Provider } from "@keel/extensions-api";
import { createHttpProvider, providerConfigs, type HttpProviderDeps } from "@keel/provider-kit";
import { anthropicFormat } from "./format.ts";
import { anthropicModels } from "./models.ts";

export const ANTHROPIC = { id: "anthropic", defaultBaseUrl: "https://api.anthropic.com/v1", baseUrlEnv: "ANTHROPIC_BASE_URL", keyEnv: "ANTHROPIC_API_KEY" };

export function createAnthropicProviders(allSettings: Readonly<Record<string, unknown>>, warn: (message: string) => void, deps: HttpProviderDeps = {}): Provider[] {
  const configs = providerConfigs(allSettings, "anthropic", { ...ANTHROPIC, models: anthropicModels("anthropic") }, warn, deps.env);
  return configs.map((config) => createHttpProvider(config, anthropicFormat, deps));
}
