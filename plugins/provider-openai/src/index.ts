/**
 * OpenAI Chat Completions — OpenAI itself and the servers that speak its format (Ollama, llama.cpp server,
 * vLLM, LM Studio, OpenRouter, Groq). See README.md for settings and compatibility flags.
 */
import { definePlugin } from "@keel/extensions-api";
import { createOpenAIProviders } from "./providers.ts";

export default definePlugin({
  activate(api) {
    for (const provider of createOpenAIProviders(api.allSettings, (message) => api.log.warn(message))) api.registerProvider(provider);
  },
});
