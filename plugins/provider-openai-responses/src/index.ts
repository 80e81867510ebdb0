/**
 * OpenAI Responses API (`POST /responses`, `store: false`), and servers speaking it through a `providers`
 * settings entry with `"api": "openai-responses"`. The format lives in @keel/provider-kit; see README.md.
 */
import { definePlugin } from "@keel/extensions-api";
import { registerCompatibleProvider, serveSettingsProviders } from "@keel/provider-kit";
import { OPENAI_RESPONSES } from "./vendor.ts";

export default definePlugin({
  activate(api) {
    registerCompatibleProvider(api, OPENAI_RESPONSES);
    serveSettingsProviders(api, "openai-responses");
  },
});
