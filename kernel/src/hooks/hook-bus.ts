/**
 * Hooks over tapable. tapable orders handlers (`stage`, `before`) and combines them by kind; this file wraps
 * every handler with a deadline, an AbortSignal and the failure rule of its kind (guards fail closed,
 * everything else fails open), and attributes each failure to the plugin that tapped it.
 */
import tapable from "tapable";
import {
  HOOKS,
  type GuardDecision,
  type HookContext,
  type HookHandler,
  type HookInput,
  type HookName,
  type HookRegistrar,
  type HookTypes,
  type PluginRef,
  type TapOptions,
} from "@keel/extensions-api";
import { errorText } from "../bus/event-bus.js";
import { runWithDeadline } from "./timeout.js";
import { transformProblem } from "./transform-checks.js";

const { AsyncParallelHook, AsyncSeriesBailHook, AsyncSeriesWaterfallHook } = tapable;

type AnyFn = (...args: any[]) => any;
interface TapRecord {
  hook: HookName;
  owner: PluginRef;
  name: string;
  stage: number;
  before?: string | string[];
  timeoutMs: number;
  handler: AnyFn;
}

/** A handler failed: the hook, its owner and what happened. The host counts these to mark plugins degraded. */
export type HookFailure = { hook: HookName; owner: PluginRef; tap: string; message: string };

/** The outcome of running a guard hook. */
export type GuardOutcome<E> = { blocked: false; event: E } | { blocked: true; reason: string; by: string };

type TransformInfo<K extends HookName> = HookTypes[K] extends { info: infer I } ? I : never;
type ProvideAnswer<K extends HookName> = HookTypes[K] extends { answer: infer A } ? A : never;

/** What every handler call carries besides its data: the run's signal and the subagent making the call. */
interface CallScope {
  signal?: AbortSignal;
  agent?: string;
}

interface GuardState extends CallScope {
  event: Record<string, unknown>;
}

export class HookBus {
  private readonly taps = new Map<HookName, TapRecord[]>();
  private readonly compiled = new Map<HookName, any>();
  /** The subagent whose calls go through this view (`forAgent`); undefined for the session's own agent. */
  private agent: string | undefined;

  constructor(
    private readonly onFailure: (failure: HookFailure) => void,
    private readonly onBlocked: (
      hook: HookName,
      by: string,
      reason: string,
      subject: unknown,
      agent: string | undefined,
    ) => void = () => undefined,
  ) {}

  /**
   * The same taps, with every call through the view naming `agent` in the handlers' `HookContext`: a
   * subagent's loop uses it, so one permission policy and one set of hooks judge the session and its
   * subagents alike. The view shares this bus's taps (it is an object whose prototype is this bus).
   */
  forAgent(agent: string): HookBus {
    const view = Object.create(this) as HookBus;
    view.agent = agent;
    return view;
  }

  /** A registrar bound to one plugin, for `api.hooks`. */
  registrarFor(owner: PluginRef, track: (dispose: () => void) => void): HookRegistrar {
    const tap = (hook: HookName, a: TapOptions | AnyFn, b?: AnyFn) => {
      const options = typeof a === "function" ? {} : a;
      const handler = (typeof a === "function" ? a : b) as AnyFn;
      const off = this.tap(owner, hook, options, handler as never);
      track(off);
      return off;
    };
    return { tap } as HookRegistrar;
  }

  tap<K extends HookName>(owner: PluginRef, hook: K, options: TapOptions, handler: HookHandler<K>): () => void {
    if (!(hook in HOOKS)) throw new Error(`Unknown hook "${hook}". Known hooks: ${Object.keys(HOOKS).join(", ")}.`);
    if (typeof handler !== "function") throw new Error(`The handler for hook "${hook}" must be a function.`);
    const record: TapRecord = {
      hook,
      owner,
      name: options.name ?? owner.name,
      stage: options.stage ?? 0,
      before: options.before,
      timeoutMs: options.timeoutMs ?? HOOKS[hook].timeoutMs,
      handler: handler as AnyFn,
    };
    const list = this.taps.get(hook) ?? [];
    list.push(record);
    this.taps.set(hook, list);
    this.compiled.delete(hook);
    return () => {
      const current = this.taps.get(hook) ?? [];
      this.taps.set(
        hook,
        current.filter((t) => t !== record),
      );
      this.compiled.delete(hook);
    };
  }

  has(hook: HookName): boolean {
    return (this.taps.get(hook)?.length ?? 0) > 0;
  }

  /** Runs a guard hook. The first block wins; rewrites accumulate; a failing guard blocks. */
  async guard<K extends HookName>(
    hook: K,
    event: HookInput<K>,
    signal?: AbortSignal,
  ): Promise<GuardOutcome<HookInput<K>>> {
    if (!this.has(hook)) return { blocked: false, event };
    const state: GuardState = { event: { ...(event as object) } as Record<string, unknown>, signal, agent: this.agent };
    const result = (await this.compile(hook).promise(state)) as { reason: string; by: string } | undefined;
    if (result) {
      this.onBlocked(hook, result.by, result.reason, state.event, this.agent);
      return { blocked: true, reason: result.reason, by: result.by };
    }
    return { blocked: false, event: state.event as HookInput<K> };
  }

  /** Runs a transform hook over `value`; a failing handler is skipped. */
  async transform<K extends HookName>(
    hook: K,
    value: HookInput<K>,
    info: TransformInfo<K>,
    signal?: AbortSignal,
  ): Promise<HookInput<K>> {
    if (!this.has(hook)) return value;
    return (await this.compile(hook).promise(value, info, this.scope(signal))) as HookInput<K>;
  }

  /**
   * Runs a provide hook; the first defined answer wins. `only`: the plugins whose handlers may answer (a question
   * a distribution's locked policy asks goes to its own UI alone); the others are not called.
   */
  async provide<K extends HookName>(
    hook: K,
    request: HookInput<K>,
    signal?: AbortSignal,
    only?: (owner: PluginRef) => boolean,
  ): Promise<ProvideAnswer<K> | undefined> {
    if (!this.has(hook)) return undefined;
    const compiled = only
      ? this.build(
          hook,
          (this.taps.get(hook) ?? []).filter((t) => only(t.owner)),
        )
      : undefined;
    return (await (compiled ?? this.compile(hook)).promise(request, this.scope(signal))) as
      ProvideAnswer<K> | undefined;
  }

  /** Runs a lifecycle hook: all handlers in parallel, awaited, failures reported. */
  async lifecycle<K extends HookName>(hook: K, event: HookInput<K>, signal?: AbortSignal): Promise<void> {
    if (!this.has(hook)) return;
    await this.compile(hook).promise(event, this.scope(signal));
  }

  private scope(signal: AbortSignal | undefined): CallScope {
    return { signal, agent: this.agent };
  }

  private compile(hook: HookName): any {
    let compiled = this.compiled.get(hook);
    if (compiled) return compiled;
    compiled = this.build(hook, this.taps.get(hook) ?? []);
    this.compiled.set(hook, compiled);
    return compiled;
  }

  private build(hook: HookName, taps: readonly TapRecord[]): any {
    const kind = HOOKS[hook].kind;
    // tapable's typings pin argument counts per hook class; the wrappers below carry the real types.
    const Hook = (kind === "guard" || kind === "provide"
      ? AsyncSeriesBailHook
      : kind === "transform"
        ? AsyncSeriesWaterfallHook
        : AsyncParallelHook) as unknown as new (args: string[]) => any;
    const compiled =
      kind === "guard"
        ? new Hook(["state"])
        : kind === "transform"
          ? new Hook(["value", "info", "scope"])
          : new Hook(["request", "scope"]);
    for (const tap of taps) {
      compiled.tapPromise({ name: tap.name, stage: tap.stage, before: tap.before }, this.wrap(kind, tap));
    }
    return compiled;
  }

  private wrap(kind: string, tap: TapRecord): AnyFn {
    const fail = (error: unknown) =>
      this.onFailure({ hook: tap.hook, owner: tap.owner, tap: tap.name, message: errorText(error) });
    const call = <T>(scope: CallScope, fn: (ctx: HookContext) => T) =>
      runWithDeadline(tap.timeoutMs, scope.signal, (handler) => {
        const { agent } = scope;
        return fn(
          agent === undefined
            ? handler
            : {
                get signal() {
                  return handler.signal;
                },
                agent,
              },
        );
      });
    switch (kind) {
      case "guard":
        return async (state: GuardState) => {
          try {
            const decision = (await call(state, (ctx) => tap.handler(state.event, ctx))) as GuardDecision<
              Record<string, unknown>
            >;
            if (decision && "block" in decision && decision.block)
              return { reason: decision.reason || "blocked", by: tap.name };
            if (decision && "rewrite" in decision && decision.rewrite)
              state.event = { ...state.event, ...decision.rewrite };
            return undefined;
          } catch (error) {
            fail(error);
            return { reason: `blocked because the guard "${tap.name}" failed (${errorText(error)})`, by: tap.name };
          }
        };
      case "transform":
        return async (value: unknown, info: unknown, scope: CallScope) => {
          try {
            const next = await call(scope, (ctx) => tap.handler(value, info, ctx));
            if (next === undefined) return value;
            const problem = transformProblem(tap.hook, next);
            if (problem) throw new Error(`returned a value of the wrong type (${problem}); it was ignored`);
            return next;
          } catch (error) {
            fail(error);
            return value;
          }
        };
      case "provide":
        return async (request: unknown, scope: CallScope) => {
          try {
            const answer = await call(scope, (ctx) => tap.handler(request, ctx));
            return answer ?? undefined;
          } catch (error) {
            fail(error);
            return undefined;
          }
        };
      default:
        return async (event: unknown, scope: CallScope) => {
          try {
            await call(scope, (ctx) => tap.handler(event, ctx));
          } catch (error) {
            fail(error);
          }
        };
    }
  }
}
