/** The providers this plugin serves: `openai` and every settings entry with `"api": "openai"`. */
import type { Provider } from "@keel/extensions-api";
import { createHttpProvider, openaiModels, providerConfigs, type HttpProviderDeps } from "@keel/provider-kit";
import { chatFormat } from "./format.ts";

export const OPENAI = { id: "openai", defaultBaseUrl: "https://api.openai.com/v1", baseUrlEnv: "OPENAI_BASE_URL", keyEnv: "OPENAI_API_KEY" };

/** Builds the providers from the merged settings; `warn` receives problems with settings entries. */
export function createOpenAIProviders(allSettings: Readonly<Record<string, unknown>>, warn: (message: string) => void, deps: HttpProviderDeps = {}): Provider[] {
  const configs = providerConfigs(allSettings, "openai", { ...OPENAI, models: openaiModels("openai", "chat") }, warn, deps.env);
  return configs.map((config) => createHttpProvider(config, chatFormat, deps));
}
