/** OpenAI Responses API (`POST /responses`, `store: false`). See README.md for settings. */
import { definePlugin } from "@keel/extensions-api";
import { createResponsesProviders } from "./providers.ts";

export default definePlugin({
  activate(api) {
    for (const provider of createResponsesProviders(api.allSettings, (message) => api.log.warn(message))) api.registerProvider(provider);
  },
});
