/** OpenAI's Responses endpoint as the kit describes a provider; key and base URL shared with Chat Completions. */
import { openaiModels, type CompatibleProviderSpec } from "@keel/provider-kit";

export const OPENAI_RESPONSES: CompatibleProviderSpec = {
  id: "openai-responses",
  api: "openai-responses",
  name: "OpenAI Responses",
  baseUrl: "https://api.openai.com/v1",
  baseUrlEnv: "OPENAI_BASE_URL",
  keyEnv: "OPENAI_API_KEY",
  models: openaiModels("responses"),
};
