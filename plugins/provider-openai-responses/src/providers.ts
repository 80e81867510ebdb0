/** The providers this plugin serves: `openai-responses` and every settings entry with `"api": "openai-responses"`. */
import type { Provider } from "@keel/extensions-api";
import { createHttpProvider, openaiModels, providerConfigs, type HttpProviderDeps } from "@keel/provider-kit";
import { responsesFormat } from "./format.ts";

/** Same key and base URL variables as the official SDK, shared with the Chat Completions plugin. */
export const OPENAI_RESPONSES = { id: "openai-responses", defaultBaseUrl: "https://api.openai.com/v1", baseUrlEnv: "OPENAI_BASE_URL", keyEnv: "OPENAI_API_KEY" };

export function createResponsesProviders(allSettings: Readonly<Record<string, unknown>>, warn: (message: string) => void, deps: HttpProviderDeps = {}): Provider[] {
  const configs = providerConfigs(allSettings, "openai-responses", { ...OPENAI_RESPONSES, models: openaiModels("openai-responses", "responses") }, warn, deps.env);
  return configs.map((config) => createHttpProvider(config, responsesFormat, deps));
}
