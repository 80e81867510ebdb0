/**
 * OpenAI Chat Completions — OpenAI itself, and every server that speaks the format (Ollama, llama.cpp server,
 * vLLM, LM Studio, OpenRouter, Groq) through a `providers` settings entry with `"api": "openai"`. The format
 * lives in @keel/provider-kit; see README.md for settings and quirk flags.
 */
import { definePlugin } from "@keel/extensions-api";
import { registerCompatibleProvider, serveSettingsProviders } from "@keel/provider-kit";
import { OPENAI } from "./vendor.ts";

export default definePlugin({
  activate(api) {
    registerCompatibleProvider(api, OPENAI);
    serveSettingsProviders(api, "openai");
  },
});
