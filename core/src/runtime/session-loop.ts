/**
 * The session's loop: the kernel's `Agent` wired to what the runtime holds — the model choice, the tools in
 * effect, the system prompt (the setting, then the distribution's additions, then the `system_prompt` hook),
 * the backend tools wait for, and the loop settings. Subagents share part of the wiring (`sharedLoop`).
 */
import type { ThinkingLevel, ToolCall, ToolContext, ToolResult } from "@keel/extensions-api";
import { Agent, type EventBus, type HookBus } from "@keel/kernel";
import type { CoreSettings } from "../settings/core-settings.js";
import type { ModelChoice } from "./model-choice.js";
import type { SessionBackend } from "./session-backend.js";
import type { SessionMoves } from "./session-moves.js";
import type { SubagentHost } from "./subagent.js";
import { toolContext, type ToolsInEffect } from "./tool-wiring.js";

/** What the session's loop is built from; `core` and `thinking` are read when used. */
export interface SessionParts {
  bus: EventBus;
  hooks: HookBus;
  cwd: string;
  core(): CoreSettings;
  /** The distribution's additions to the system prompt, which no settings layer removes. */
  promptAdditions: readonly string[];
  target: ModelChoice;
  tools: ToolsInEffect;
  backend: SessionBackend;
  session: SessionMoves;
  thinking(): ThinkingLevel | undefined;
}

/** The loop wiring the session's agent and its subagents share, on the settings in effect now. */
export function sharedLoop(parts: SessionParts): SubagentHost["shared"] {
  const { bus, backend, session } = parts;
  return {
    toolsReady: () => backend.prepare(),
    toolFault: (plugin, message, severity) =>
      severity === "error"
        ? bus.emit("plugin_error", { plugin, phase: "tool", message })
        : bus.emit("plugin_warning", { plugin, message }),
    sessionId: () => session.id,
    thinking: () => parts.thinking(),
    limits: parts.core().loop,
    compaction: parts.core().compaction,
  };
}

/** The context of one tool call (`agent` names the subagent making it, if any). */
export function callContext(
  parts: SessionParts,
): (call: ToolCall, signal: AbortSignal, update: (partial: ToolResult) => void, agent?: string) => ToolContext {
  return (call, signal, update, agent) =>
    toolContext(call, signal, update, agent, {
      cwd: parts.cwd,
      dataDir: () => parts.session.dataDir,
      ops: () => parts.backend.current,
    });
}

/** The session's own agent. */
export function sessionAgent(parts: SessionParts): Agent {
  const { bus, hooks, cwd, promptAdditions } = parts;
  const context = callContext(parts);
  return new Agent({
    ...sharedLoop(parts),
    bus,
    hooks,
    model: () => parts.target.ready(),
    tools: () => parts.tools.get(),
    systemPrompt: (model, toolNames) => {
      const base = [parts.core().systemPrompt, ...promptAdditions].filter((part) => part.length > 0).join("\n\n");
      return hooks.transform("system_prompt", base, { cwd, model, toolNames, additions: promptAdditions });
    },
    toolContext: (call, signal, update) => context(call, signal, update),
    historyCompacted: () => parts.session.historyReplaced("compaction"),
  });
}
