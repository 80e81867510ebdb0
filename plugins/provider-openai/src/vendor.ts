/** OpenAI's Chat Completions endpoint as the kit describes a provider (the official SDK's variable names). */
import { openaiModels, type CompatibleProviderSpec } from "@keel/provider-kit";

export const OPENAI: CompatibleProviderSpec = {
  id: "openai",
  api: "openai",
  name: "OpenAI",
  baseUrl: "https://api.openai.com/v1",
  baseUrlEnv: "OPENAI_BASE_URL",
  keyEnv: "OPENAI_API_KEY",
  models: openaiModels("chat"),
};
