/**
 * The Claude Code events on keel's hooks: what each one sends the script, and what its answer does. Every
 * tap returns at once when no hook is configured for its event, so the plugin costs nothing without hooks.
 * The tool events are tool-hooks.ts; the catalog of events is events.ts.
 */
import {
  type GuardDecision,
  type HookContext,
  type HookInput,
  type InputEvent,
  type PluginAPI,
  type RunEnd,
  type Runtime,
  type SessionInfo,
  type UiRequest,
} from "@keel/extensions-api";
import { parseHooks } from "./config.ts";
import type { HookEventName } from "./events.ts";
import { judgeWith } from "./judge.ts";
import type { Outcome } from "./outcome.ts";
import { permissionMode } from "./permission-mode.ts";
import { pluginHooks } from "./plugin-hooks.ts";
import { HookRunner } from "./runner.ts";
import { hookSources } from "./switches.ts";
import { toolHooks } from "./tool-hooks.ts";
import { Transcript } from "./transcript.ts";

/** Claude Code's SessionEnd reasons for keel's; keel has no /clear or logout, so those two never occur. */
const END_REASONS = { exit: "prompt_input_exit", completed: "other", signal: "other", other: "other" } as const;

const textOfInput = (content: InputEvent["content"]) =>
  typeof content === "string" ? content : content.map((p) => (p.type === "text" ? p.text : "")).join("");

export function hookBridge(api: PluginAPI) {
  const problems: string[] = [];
  const runner = new HookRunner();
  const sources = hookSources(api);
  problems.push(...sources.ignored);
  runner.add(parseHooks(sources.settings, "settings", problems));
  let sessionContext: string | undefined;
  /** What `async` hooks said after their event: added to the next prompt, as Claude Code adds it next turn. */
  let pending: string[] = [];
  // Kept from session_start: the host takes `api.runtime` away before session_end, which still runs hooks.
  let session: Runtime | undefined;
  const runtimeOf = () => session ?? api.runtime;
  const mode = permissionMode(api, runtimeOf);
  const transcript = new Transcript();
  const warn = (message: string) => api.log.warn(message);
  const judge = judgeWith(runtimeOf, () => api.allSettings.modelAliases, warn);

  const report = (outcome: Outcome) => {
    for (const problem of outcome.problems) warn(problem);
    for (const notice of outcome.notices) runtimeOf().notify(notice);
  };
  const later = (outcome: Outcome) => {
    report(outcome);
    if (outcome.context) pending.push(outcome.context);
  };
  const run = (event: HookEventName, subjects: readonly string[], input: Record<string, unknown>, ctx: HookContext) => {
    // A hook's own subagent (an `agent` hook) is not watched by hooks: it would judge itself.
    if (ctx.agent?.startsWith("hook:")) return Promise.resolve<Outcome>({ notices: [], problems: [] });
    const runtime = runtimeOf();
    const common = {
      session_id: runtime.sessionId,
      transcript_path: transcript.sync(runtime.dataDir, runtime.sessionId, runtime.cwd, runtime.messages),
      cwd: runtime.cwd,
      permission_mode: mode(),
    };
    const context = { cwd: runtime.cwd, signal: ctx.signal, report, later, judge };
    return runner.run(event, subjects, { ...common, ...input }, context);
  };
  const stopRun = (reason: string) => {
    runtimeOf().notify(reason, "warning");
    queueMicrotask(() => runtimeOf().abort());
  };
  const tools = toolHooks({ runtime: runtimeOf, has: (e) => runner.has(e), run, stopRun });

  return {
    ...tools,

    async sessionStart(_: unknown, ctx: HookContext): Promise<void> {
      session = api.runtime;
      if (sources.plugins) runner.add(pluginHooks(session.listPlugins(), problems));
      for (const problem of problems.splice(0)) warn(problem);
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

    /** The session's prompts: UserPromptSubmit. A subagent's first prompt: SubagentStart. */
    async input(event: InputEvent, ctx: HookContext): Promise<GuardDecision<InputEvent>> {
      const subagent = ctx.agent !== undefined;
      if (subagent && event.source !== "prompt") return;
      const name: HookEventName = subagent ? "SubagentStart" : "UserPromptSubmit";
      const added = subagent ? [] : pending.splice(0);
      let o: Outcome = { notices: [], problems: [] };
      if (runner.has(name)) {
        const type = ctx.agent?.replace(/^task:/, "").replace(/#\d+$/, "") ?? "";
        const input = subagent ? { agent_id: ctx.agent, agent_type: type } : { prompt: textOfInput(event.content) };
        o = await run(name, subagent ? [type] : [], input, ctx);
      }
      if (!subagent && o.stop) {
        stopRun(o.stop);
        return { block: true, reason: o.stop };
      }
      if (!subagent && o.block) return { block: true, reason: o.block };
      if (o.context) added.push(o.context);
      if (added.length === 0) return;
      const extra = added.join("\n\n");
      const content =
        typeof event.content === "string"
          ? `${event.content}\n\n${extra}`
          : [...event.content, { type: "text" as const, text: extra }];
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

    /** A run ended with an error: StopFailure, which may only observe. */
    async runEnded(end: RunEnd, ctx: HookContext): Promise<void> {
      if (end.reason !== "error" || !runner.has("StopFailure")) return;
      await run("StopFailure", [], { error: end.errorMessage ?? "" }, ctx);
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

    /** Compaction finished (an event: nothing waits for these hooks). */
    postCompact(reason: string): void {
      if (!runner.has("PostCompact")) return;
      const trigger = reason === "manual" ? "manual" : "auto";
      void run("PostCompact", [trigger], { trigger }, { signal: new AbortController().signal });
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
