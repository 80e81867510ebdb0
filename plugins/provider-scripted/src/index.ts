/**
 * provider-scripted: a model that plays a JSON script of turns (text, thinking, tool calls), streaming each in
 * small deltas. The demo and tests use it; so can anyone who wants a repeatable run without a real model.
 */
import { definePlugin } from "@keel/extensions-api";
import { scriptedProvider } from "./scripted-provider.ts";
import { ScriptedSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: ScriptedSettingsSchema,
  activate(api) {
    api.registerProvider(scriptedProvider(api));
  },
});
