/**
 * The Claude Code events on keel's hooks: what each one sends the script, and what its answer does. Every
 * tap returns at once when no hook is configured for its event, so the plugin costs nothing without hooks.
 */
import {
  type GuardDecision,
  type HookContext,
  type HookInput,
  type InputEvent,
  type PluginAPI,
  type Runtime,
  type SessionInfo,
  type ToolCallEvent,
  type ToolResultMessage,
  type UiRequest,
} from "@keel/extensions-api";
import { parseHooks } from "./config.ts";
import type { HookEventName } from "./events.ts";
import type { Outcome } from "./outcome.ts";
import { pluginHooks } from "./plugin-hooks.ts";
import { HookRunner } from "./runner.ts";
import { keelInput, toolNamesOf, wireCall, wireResponse } from "./tool-wire.ts";
import { Transcript } from "./transcript.ts";

/** Claude Code's SessionEnd reasons for keel's; keel has no /clear or logout, so those two never occur. */
const END_REASONS = { exit: "prompt_input_exit", completed: "other", signal: "other", other: "other" } as const;

export function hookBridge(api: PluginAPI) {
  const problems: string[] = [];
  const runner = new HookRunner();
  runner.add(parseHooks(api.allSettings.hooks, "settings", problems));
  let sessionContext: string | undefined;
  // Kept from session_start: the host takes `api.runtime` away before session_end, which still runs hooks.
  let session: Runtime | undefined;
  const runtimeOf = () => session ?? api.runtime;
  const transcript = new Transcript();

  const report = (outcome: Outcome) => {
    for (const problem of outcome.problems) api.log.warn(problem);
    for (const notice of outcome.notices) runtimeOf().notify(notice);
  };
  const run = (event: HookEventName, subjects: readonly string[], input: Record<string, unknown>, ctx: HookContext) => {
    const runtime = runtimeOf();
    const common = {
      session_id: runtime.sessionId,
      transcript_path: transcript.sync(runtime.dataDir, runtime.sessionId, runtime.cwd, runtime.messages),
      cwd: runtime.cwd,
      permission_mode: (runtime.flags["permission-mode"] as string | undefined) ?? "default",
    };
    return runner.run(event, subjects, { ...common, ...input }, { cwd: runtime.cwd, signal: ctx.signal, report });
  };
  /** `continue: false`: the user sees why, and the run ends. */
  const stopRun = (reason: string) => {
    runtimeOf().notify(reason, "warning");
    queueMicrotask(() => runtimeOf().abort());
  };

  return {
    async sessionStart(_: unknown, ctx: HookContext): Promise<void> {
      session = api.runtime;
      runner.add(pluginHooks(session.listPlugins(), problems));
      for (const problem of problems.splice(0)) api.log.warn(problem);
      if (!runner.has("SessionStart")) return;
      const source = session.messages.length > 0 ? "resume" : "startup";
      sessionContext = (await run("SessionStart", [source], { source }, ctx)).context;
    },

    systemPrompt(prompt: string): string {
      return sessionContext ? `${prompt}\n\n${sessionContext}` : prompt;
    },

    async sessionEnd(info: SessionInfo, ctx: HookContext): Promise<void> {
      if (!runner.has("SessionEnd")) return;
      const reason = END_REASONS[info.reason ?? "other"];
      await run("SessionEnd", [reason], { reason }, ctx);
    },

    async preToolUse(event: ToolCallEvent, ctx: HookContext): Promise<GuardDecision<ToolCallEvent>> {
      if (!runner.has("PreToolUse")) return;
      const call = wireCall(event.toolName, event.input, runtimeOf().cwd);
      const input = { tool_name: call.name, tool_input: call.input, tool_use_id: event.toolCallId };
      const o = await run("PreToolUse", toolNamesOf(event.toolName), input, ctx);
      if (o.stop) {
        stopRun(o.stop);
        return { block: true, reason: o.stop };
      }
      if (o.block) return { block: true, reason: o.block };
      if (o.permission === "deny") return { block: true, reason: o.permissionReason ?? "denied by a PreToolUse hook" };
      if (o.permission === "ask") {
        const title = `A hook asks: allow ${call.name} ${JSON.stringify({ ...call.input, ...o.updatedInput })}?`;
        const answer = await runtimeOf().ask({ kind: "confirm", title, message: o.permissionReason });
        if (!answer)
          return {
            block: true,
            reason:
              `a PreToolUse hook asks for approval ` +
              `(${o.permissionReason ?? "no reason given"}) and there is no UI to ask`,
          };
        if (answer.kind !== "confirm" || !answer.confirmed)
          return {
            block: true,
            reason:
              `the user declined ${event.toolName} when a hook ` +
              `asked${o.permissionReason ? ` (${o.permissionReason})` : ""}`,
          };
      }
      // "allow" is no objection: keel's own permission policy still decides (it runs after this guard).
      if (!o.updatedInput) return;
      try {
        return { rewrite: { input: keelInput(event.toolName, call.input, o.updatedInput) } };
      } catch (error) {
        // Running the call as it was would ignore the hook; refusing it says why.
        return {
          block: true,
          reason: `a PreToolUse hook's updatedInput cannot be applied: ${(error as Error).message}`,
        };
      }
    },

    async postToolUse(
      result: ToolResultMessage,
      info: { input: unknown },
      ctx: HookContext,
    ): Promise<ToolResultMessage> {
      if (!runner.has("PostToolUse")) return result;
      const cwd = runtimeOf().cwd;
      const keelIn = (info.input ?? {}) as Record<string, unknown>;
      const call = wireCall(result.toolName, keelIn, cwd);
      const input = {
        tool_name: call.name,
        tool_input: call.input,
        tool_response: wireResponse(result, keelIn, cwd),
        tool_use_id: result.toolCallId,
      };
      const o = await run("PostToolUse", toolNamesOf(result.toolName), input, ctx);
      if (o.stop) stopRun(o.stop);
      // The tool already ran: a block cannot undo it, so its reason is feedback the model reads with the result.
      const feedback = [o.block, o.context].filter((t): t is string => Boolean(t));
      if (feedback.length === 0) return result;
      return {
        ...result,
        content: [...result.content, { type: "text", text: `\n\nPostToolUse hook: ${feedback.join("\n")}` }],
      };
    },

    async userPromptSubmit(event: InputEvent, ctx: HookContext): Promise<GuardDecision<InputEvent>> {
      if (!runner.has("UserPromptSubmit")) return;
      const prompt =
        typeof event.content === "string"
          ? event.content
          : event.content.map((p) => (p.type === "text" ? p.text : "")).join("");
      const o = await run("UserPromptSubmit", [], { prompt }, ctx);
      if (o.stop) {
        stopRun(o.stop);
        return { block: true, reason: o.stop };
      }
      if (o.block) return { block: true, reason: o.block };
      if (!o.context) return;
      const content =
        typeof event.content === "string"
          ? `${event.content}\n\n${o.context}`
          : [...event.content, { type: "text" as const, text: o.context }];
      return { rewrite: { content } };
    },

    /** A run is about to end: Claude Code's Stop, or SubagentStop when a subagent's run (`ctx.agent`) is. */
    async stop(request: { continuations: number }, ctx: HookContext): Promise<{ continueWith: string } | undefined> {
      const event = ctx.agent ? "SubagentStop" : "Stop";
      if (!runner.has(event)) return undefined;
      const o = await run(event, [], { stop_hook_active: request.continuations > 0 }, ctx);
      if (o.stop || !o.block) return undefined;
      return { continueWith: o.block };
    },

    async preCompact(
      event: HookInput<"compact_before">,
      ctx: HookContext,
    ): Promise<GuardDecision<HookInput<"compact_before">>> {
      if (!runner.has("PreCompact")) return;
      const trigger = event.reason === "manual" ? "manual" : "auto";
      const o = await run("PreCompact", [trigger], { trigger, custom_instructions: "" }, ctx);
      if (o.block) return { block: true, reason: o.block };
    },

    /** keel asks the user something: Claude Code's "needs your attention" notification. Never answers. */
    notification(request: UiRequest, ctx: HookContext): undefined {
      if (!runner.has("Notification")) return undefined;
      const message =
        request.kind === "confirm" && request.message ? `${request.title}: ${request.message}` : request.title;
      // keel's questions are mostly approvals (confirm, select); an `input` asks for text, like an elicitation.
      const type = request.kind === "input" ? "elicitation_dialog" : "permission_prompt";
      // Not awaited: a notifier must not hold up the question it announces.
      void run("Notification", [type], { message, title: "keel", notification_type: type }, ctx);
      return undefined;
    },
  };
}
