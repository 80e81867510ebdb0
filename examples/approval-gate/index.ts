/**
 * Approval gate: a `tool_call` guard that asks the user before any tool that can change something runs.
 * Read-only tools and the tools listed in `approval.allow` pass. With no UI to ask (print mode, CI), or when
 * the user says no, the call is blocked and the model is told why.
 *
 * settings.json: { "approval": { "allow": ["bash"] } }
 */
import { definePlugin, STAGE_POLICY, z } from "@keel/extensions-api";

export default definePlugin({
  settings: z.object({ allow: z.array(z.string()).default([]) }).default({ allow: [] }),
  activate(api) {
    // A person may take their time: no timeout on this guard.
    api.hooks.tap("tool_call", { stage: STAGE_POLICY, timeoutMs: Infinity }, async (call) => {
      if (call.readOnly || api.settings.allow.includes(call.toolName)) return undefined;
      const answer = await api.runtime.ask({
        kind: "confirm",
        title: `Allow ${call.toolName}?`,
        message: JSON.stringify(call.input),
      });
      if (answer?.kind === "confirm" && answer.confirmed) return undefined;
      return {
        block: true,
        reason: answer
          ? "the user declined this call"
          : "no one is there to approve it (non-interactive run); ask the user to allow it in settings",
      };
    });
  },
});
