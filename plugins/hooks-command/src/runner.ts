/**
 * Runs the hooks of one event that match its subject (a tool name, a source, a trigger): all at once, as
 * Claude Code does, the same command or URL only once, each with its own timeout. An `async` command hook
 * runs in the background: the event does not wait for it, and what it says later is reported on its own.
 * Problems and notices go to `report`; the combined outcome goes back to the keel hook that asked.
 */
import type { ConfiguredHook, ModelHook } from "./config.ts";
import type { HookEventName } from "./events.ts";
import { runHttpHook } from "./http-hook.ts";
import { combine, readRun, type Outcome } from "./outcome.ts";
import { runCommandHook, type HookRun } from "./spawn-hook.ts";

/** Claude Code's defaults: a minute for a command, half a minute for a model's judgement. */
const DEFAULT_TIMEOUT_S = { command: 60, http: 60, prompt: 30, agent: 60 } as const;

export interface RunContext {
  cwd: string;
  signal: AbortSignal;
  report(outcome: Outcome): void;
  /** What an `async` hook said once it finished (its context, its messages). */
  later(outcome: Outcome): void;
  /** Asks a model (`prompt`) or a subagent (`agent`) to judge the event; a run as a command's would end. */
  judge(hook: ModelHook, input: string, timeoutMs: number, signal: AbortSignal): Promise<HookRun>;
}

/** What makes two hooks the same hook: one runs. */
function keyOf({ spec }: ConfiguredHook): string {
  return `${spec.type}:${spec.type === "command" ? spec.command : spec.type === "http" ? spec.url : spec.prompt}`;
}

export class HookRunner {
  private readonly byEvent = new Map<HookEventName, ConfiguredHook[]>();

  /** Adds hooks (settings at activation, plugins' hooks.json when the session starts). */
  add(hooks: ConfiguredHook[]): void {
    for (const hook of hooks) this.byEvent.set(hook.event, [...(this.byEvent.get(hook.event) ?? []), hook]);
  }

  /** Whether any hook is configured for `event` (the taps return at once when none is). */
  has(event: HookEventName): boolean {
    return this.byEvent.has(event);
  }

  /** The hooks of `event` whose matcher accepts one of `subjects` (no subjects: every hook of the event). */
  matching(event: HookEventName, subjects: readonly string[] = []): ConfiguredHook[] {
    const seen = new Set<string>();
    return (this.byEvent.get(event) ?? []).filter((hook) => {
      if (hook.matcher && subjects.length > 0 && !subjects.some((s) => hook.matcher!.test(s))) return false;
      if (seen.has(keyOf(hook))) return false;
      seen.add(keyOf(hook));
      return true;
    });
  }

  /** Runs the matching hooks with `input` (the event JSON) and combines what the ones waited for said. */
  async run(
    event: HookEventName,
    subjects: readonly string[],
    input: Record<string, unknown>,
    ctx: RunContext,
  ): Promise<Outcome> {
    const hooks = this.matching(event, subjects);
    if (hooks.length === 0) return { notices: [], problems: [] };
    const json = JSON.stringify({ hook_event_name: event, ...input });
    const background = hooks.filter((hook) => hook.spec.type === "command" && hook.spec.async === true);
    for (const hook of background)
      void runOne(hook, json, { ...ctx, signal: new AbortController().signal }).then(ctx.later, () => undefined);
    const waited = hooks.filter((hook) => !background.includes(hook));
    const outcome = combine(await Promise.all(waited.map((hook) => runOne(hook, json, ctx))));
    ctx.report(outcome);
    return outcome;
  }
}

function labelOf(hook: ConfiguredHook): string {
  const { spec } = hook;
  const what =
    spec.type === "command" ? spec.command : spec.type === "http" ? spec.url : `${spec.type}: ${spec.prompt}`;
  return `${hook.event} hook ${JSON.stringify(what.length > 80 ? `${what.slice(0, 77)}...` : what)} (${hook.origin})`;
}

async function runOne(hook: ConfiguredHook, json: string, ctx: RunContext): Promise<Outcome> {
  const { spec } = hook;
  const timeoutMs = (spec.timeout ?? DEFAULT_TIMEOUT_S[spec.type]) * 1000;
  const run =
    spec.type === "command"
      ? await runCommandHook(spec.command, json, {
          cwd: ctx.cwd,
          env: hookEnv(ctx.cwd, hook.pluginRoot),
          timeoutMs,
          signal: ctx.signal,
          shell: spec.shell,
        })
      : spec.type === "http"
        ? await runHttpHook(spec, json, { timeoutMs, signal: ctx.signal })
        : await ctx.judge(spec, json, timeoutMs, ctx.signal);
  return readRun(hook.event, labelOf(hook), run);
}

/** The variables Claude Code gives a hook script, under its names and keel's. */
function hookEnv(cwd: string, pluginRoot: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: cwd, KEEL_PROJECT_DIR: cwd };
  if (pluginRoot) Object.assign(env, { CLAUDE_PLUGIN_ROOT: pluginRoot, KEEL_PLUGIN_ROOT: pluginRoot });
  return env;
}
