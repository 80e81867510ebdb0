/**
 * The team's policy, required by the team distribution (`plugins.required`, so keel refuses to start without
 * it): a `tool_call` guard at the security stage refusing the commands the team never runs. The approval and
 * notification hooks it ships in `hooks/hooks.json` are run by hooks-command.
 */
import { definePlugin, STAGE_SECURITY } from "@keel/extensions-api";
import { settings } from "./settings.ts";

export default definePlugin({
  settings,
  activate(api) {
    const refuse = api.settings.refuse.map((source) => new RegExp(source));
    api.hooks.tap("tool_call", { stage: STAGE_SECURITY }, (call) => {
      const command = (call.input as { command?: unknown }).command;
      if (call.toolName !== "bash" || typeof command !== "string") return undefined;
      const rule = refuse.find((pattern) => pattern.test(command));
      if (!rule) return undefined;
      return {
        block: true,
        reason: `The team's policy refuses this command (it matches ${rule.source}). Ask a person to run it.`,
      };
    });
  },
});
