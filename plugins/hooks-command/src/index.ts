/**
 * hooks-command: team hooks in Claude Code's format. The `hooks` key of settings (a project's
 * `.claude/settings.json` is mapped into it) and a plugin's `hooks/hooks.json` name commands, URLs or model
 * judgements to run on Claude Code's events (events.ts lists which keel runs); each event sits on the keel
 * hook of the same moment. Hooks of an untrusted project never reach it: the host keeps that project's `hooks`
 * key out of the settings.
 *
 * This file is all that loads with the host: the bridge (parsing, running, the wire shapes) is imported when
 * the session starts with a hook configured, so without hooks the plugin costs a few no-op taps.
 */
import { definePlugin, STAGE_POLICY } from "@keel/extensions-api";
import type { hookBridge } from "./bridge.ts";
import { hooksConfigured } from "./configured.ts";

type Bridge = ReturnType<typeof hookBridge>;

export default definePlugin({
  activate(api) {
    let bridge: Bridge | undefined;
    // Hooks keep their own per-hook timeouts (and an `ask` waits for a person): no deadline from the host.
    const own = { timeoutMs: Infinity };
    api.hooks.tap("session_start", own, async (info, ctx) => {
      if (!bridge && hooksConfigured(api)) bridge = (await import("./bridge.ts")).hookBridge(api);
      await bridge?.sessionStart(info, ctx);
    });
    api.hooks.tap("session_end", own, (info, ctx) => bridge?.sessionEnd(info, ctx));
    api.hooks.tap("system_prompt", (prompt) => bridge?.systemPrompt(prompt) ?? prompt);
    // Ahead of the permission policy, as in Claude Code: a hook's deny saves the user a question.
    api.hooks.tap("tool_call", { ...own, stage: STAGE_POLICY - 10 }, (call, ctx) => bridge?.preToolUse(call, ctx));
    api.hooks.tap("tool_result", own, (result, info, ctx) => bridge?.postToolUse(result, info, ctx) ?? result);
    api.hooks.tap("input", own, (event, ctx) => bridge?.input(event, ctx));
    api.hooks.tap("stop", own, (request, ctx) => bridge?.stop(request, ctx));
    api.hooks.tap("agent_end", own, (end, ctx) => bridge?.runEnded(end, ctx));
    api.hooks.tap("compact_before", own, (event, ctx) => bridge?.preCompact(event, ctx));
    api.hooks.tap("ui_request", { stage: STAGE_POLICY - 10 }, (request, ctx) => bridge?.notification(request, ctx));
    api.events.on("compaction_end", ({ reason }) => bridge?.postCompact(reason));
    // Any guard's block, this plugin's or another's: the call never ran, so PostToolUse must not hear of it.
    api.events.on("guard_blocked", ({ hook, subject, agent }) => {
      const id = (subject as { toolCallId?: unknown } | undefined)?.toolCallId;
      if (hook === "tool_call" && typeof id === "string") bridge?.blockedCall(id, agent);
    });
  },
});
