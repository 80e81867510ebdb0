/**
 * PreToolUse, PostToolUse and PostToolUseFailure, as Claude Code runs them: PostToolUse for a tool that ran
 * and succeeded, PostToolUseFailure for one that ran and failed, and neither for a call that never ran (a
 * guard blocked it, or it was malformed). A PreToolUse hook's `additionalContext` reaches the model with the
 * call's result.
 */
import type { GuardDecision, HookContext, Runtime, ToolCallEvent, ToolResultMessage } from "@keel/extensions-api";
import type { HookEventName } from "./events.ts";
import type { Outcome } from "./outcome.ts";
import { keelInput, toolNamesOf, wireCall, wireResponse } from "./tool-wire.ts";

export interface ToolHookDeps {
  runtime(): Runtime;
  has(event: HookEventName): boolean;
  run(
    event: HookEventName,
    subjects: readonly string[],
    input: Record<string, unknown>,
    ctx: HookContext,
  ): Promise<Outcome>;
  /** `continue: false`: the user sees why, and the run ends. */
  stopRun(reason: string): void;
}

/** A call's key across the session and its subagents, whose ids may repeat. */
const keyOf = (id: string, ctx: HookContext) => `${ctx.agent ?? ""}\u0000${id}`;

export function toolHooks(deps: ToolHookDeps) {
  /** Calls a guard blocked: they never ran, so no PostToolUse hook hears of them. */
  const blocked = new Set<string>();
  /** PreToolUse context for a call, added to its result. */
  const context = new Map<string, string>();

  async function askUser(event: ToolCallEvent, call: { name: string; input: Record<string, unknown> }, o: Outcome) {
    const title = `A hook asks: allow ${call.name} ${JSON.stringify({ ...call.input, ...o.updatedInput })}?`;
    const answer = await deps.runtime().ask({ kind: "confirm", title, message: o.permissionReason });
    const why = o.permissionReason;
    if (!answer) return `a PreToolUse hook asks for approval (${why ?? "no reason given"}) and there is no UI to ask`;
    if (answer.kind !== "confirm" || !answer.confirmed)
      return `the user declined ${event.toolName} when a hook asked${why ? ` (${why})` : ""}`;
    return undefined;
  }

  return {
    /** A guard blocked a call (any guard: this plugin's, the permission policy, another's). */
    blockedCall(id: string, agent: string | undefined): void {
      blocked.add(keyOf(id, { agent } as HookContext));
    },

    async preToolUse(event: ToolCallEvent, ctx: HookContext): Promise<GuardDecision<ToolCallEvent>> {
      if (!deps.has("PreToolUse")) return;
      const call = wireCall(event.toolName, event.input, deps.runtime().cwd);
      const input = { tool_name: call.name, tool_input: call.input, tool_use_id: event.toolCallId };
      const o = await deps.run("PreToolUse", toolNamesOf(event.toolName), input, ctx);
      if (o.stop) {
        deps.stopRun(o.stop);
        return { block: true, reason: o.stop };
      }
      if (o.block) return { block: true, reason: o.block };
      if (o.permission === "deny") return { block: true, reason: o.permissionReason ?? "denied by a PreToolUse hook" };
      if (o.permission === "ask") {
        const refused = await askUser(event, call, o);
        if (refused) return { block: true, reason: refused };
      }
      if (o.context) context.set(keyOf(event.toolCallId, ctx), o.context);
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
      const key = keyOf(result.toolCallId, ctx);
      const before = context.get(key);
      context.delete(key);
      const ran = !blocked.delete(key) && info.input !== undefined;
      const event: HookEventName = result.isError ? "PostToolUseFailure" : "PostToolUse";
      const feedback = before ? [`PreToolUse hook: ${before}`] : [];
      if (ran && deps.has(event)) {
        const cwd = deps.runtime().cwd;
        const keelIn = info.input as Record<string, unknown>;
        const call = wireCall(result.toolName, keelIn, cwd);
        const common = { tool_name: call.name, tool_input: call.input, tool_use_id: result.toolCallId };
        const input = result.isError
          ? {
              ...common,
              error: result.content.map((c) => (c.type === "text" ? c.text : "")).join(""),
              is_interrupt: false,
            }
          : { ...common, tool_response: wireResponse(result, keelIn, cwd) };
        const o = await deps.run(event, toolNamesOf(result.toolName), input, ctx);
        if (o.stop) deps.stopRun(o.stop);
        // The tool already ran: a block cannot undo it, so its reason is feedback the model reads with the result.
        const said = [o.block, o.context].filter((t): t is string => Boolean(t));
        if (said.length > 0) feedback.push(`${event} hook: ${said.join("\n")}`);
      }
      if (feedback.length === 0) return result;
      return { ...result, content: [...result.content, { type: "text", text: `\n\n${feedback.join("\n\n")}` }] };
    },
  };
}
