/**
 * hooks-command: team hooks in Claude Code's format. The `hooks` key of settings.json (and a plugin's
 * `hooks/hooks.json`) names commands or URLs to run on PreToolUse, PostToolUse, UserPromptSubmit, Stop,
 * SessionStart, SessionEnd, Notification and PreCompact; each event sits on the keel hook of the same moment.
 * Hooks of an untrusted project never reach it: the host keeps that project's `hooks` key out of the settings.
 */
import { definePlugin, STAGE_POLICY } from "@keel/extensions-api";
import { hookBridge } from "./bridge.ts";

export default definePlugin({
  activate(api) {
    const hooks = hookBridge(api);
    // Hooks keep their own per-hook timeouts (and an `ask` waits for a person): no deadline from the host.
    const own = { timeoutMs: Infinity };
    api.hooks.tap("session_start", own, hooks.sessionStart);
    api.hooks.tap("session_end", own, hooks.sessionEnd);
    api.hooks.tap("system_prompt", hooks.systemPrompt);
    // Ahead of the permission policy, as in Claude Code: a hook's deny saves the user a question.
    api.hooks.tap("tool_call", { ...own, stage: STAGE_POLICY - 10 }, hooks.preToolUse);
    api.hooks.tap("tool_result", own, hooks.postToolUse);
    api.hooks.tap("input", own, hooks.userPromptSubmit);
    api.hooks.tap("stop", own, hooks.stop);
    api.hooks.tap("compact_before", own, hooks.preCompact);
    api.hooks.tap("ui_request", { stage: STAGE_POLICY - 10 }, hooks.notification);
  },
});
