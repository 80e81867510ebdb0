/** Anthropic Messages API (and servers that speak it). See README.md for settings. */
import { definePlugin } from "@keel/extensions-api";
import { createAnthropicProviders } from "./providers.ts";

export default definePlugin({
  activate(api) {
    for (const provider of createAnthropicProviders(api.allSettings, (message) => api.log.warn(message))) api.registerProvider(provider);
  },
});
