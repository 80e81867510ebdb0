/**
 * Anthropic Messages API, and servers speaking it through a `providers` settings entry with
 * `"api": "anthropic"`. The format lives in @keel/provider-kit; see README.md for settings.
 */
import { definePlugin } from "@keel/extensions-api";
import { registerCompatibleProvider, serveSettingsProviders } from "@keel/provider-kit";
import { ANTHROPIC } from "./vendor.ts";

export default definePlugin({
  activate(api) {
    registerCompatibleProvider(api, ANTHROPIC);
    serveSettingsProviders(api, "anthropic");
  },
});
