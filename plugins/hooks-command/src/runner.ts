/**
 * Runs the hooks of one event that match its subject (a tool name, a source, a trigger): all at once, as
 * Claude Code does, the same command or URL only once, each with its own timeout. Problems and notices go to
 * `report`; the combined outcome goes back to the keel hook that asked.
 */
import type { ConfiguredHook } from "./config.ts";
import type { HookEventName } from "./events.ts";
import { runHttpHook } from "./http-hook.ts";
import { combine, readRun, type Outcome } from "./outcome.ts";
import { runCommandHook } from "./spawn-hook.ts";

/** Claude Code's default: a minute per hook. */
const DEFAULT_TIMEOUT_S = 60;

export interface RunContext {
  cwd: string;
  signal: AbortSignal;
  report(outcome: Outcome): void;
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
      const key = `${hook.spec.type}:${hook.spec.type === "command" ? hook.spec.command : hook.spec.url}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Runs the matching hooks with `input` (the event JSON) and combines what they said. */
  async run(
    event: HookEventName,
    subjects: readonly string[],
    input: Record<string, unknown>,
    ctx: RunContext,
  ): Promise<Outcome> {
    const hooks = this.matching(event, subjects);
    if (hooks.length === 0) return { notices: [], problems: [] };
    const json = JSON.stringify({ hook_event_name: event, ...input });
    const outcomes = await Promise.all(hooks.map((hook) => runOne(hook, json, ctx)));
    const outcome = combine(outcomes);
    ctx.report(outcome);
    return outcome;
  }
}

async function runOne(hook: ConfiguredHook, json: string, ctx: RunContext): Promise<Outcome> {
  const timeoutMs = (hook.spec.timeout ?? DEFAULT_TIMEOUT_S) * 1000;
  const label =
    `${hook.event} ` +
    `hook ${JSON.stringify(hook.spec.type === "command" ? hook.spec.command : hook.spec.url)} (${hook.origin})`;
  const run =
    hook.spec.type === "command"
      ? await runCommandHook(hook.spec.command, json, {
          cwd: ctx.cwd,
          env: hookEnv(ctx.cwd, hook.pluginRoot),
          timeoutMs,
          signal: ctx.signal,
        })
      : await runHttpHook(hook.spec, json, { timeoutMs, signal: ctx.signal });
  return readRun(hook.event, label, run);
}

/** The variables Claude Code gives a hook script, under its names and keel's. */
function hookEnv(cwd: string, pluginRoot: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CLAUDE_PROJECT_DIR: cwd, KEEL_PROJECT_DIR: cwd };
  if (pluginRoot) Object.assign(env, { CLAUDE_PLUGIN_ROOT: pluginRoot, KEEL_PLUGIN_ROOT: pluginRoot });
  return env;
}
