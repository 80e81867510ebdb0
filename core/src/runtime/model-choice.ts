/**
 * Which model the session talks to, and how hard it thinks: what `setModel` (`setThinking`) chose, else the
 * flags, else the settings. The model is picked when the session starts without asking its provider whether it
 * is ready (so modes and commands can show it from the start), and checked for readiness when a run first needs
 * it, so a missing key is a clear error then and only then.
 */
import { THINKING_LEVELS, type ModelInfo, type ThinkingLevel } from "@keel/extensions-api";
import type { HookBus } from "@keel/kernel";
import type { Contributions } from "../host/registries.js";
import type { PluginHost } from "../host/plugin-host.js";
import { allModels, ensureReady, resolveTarget, type Target } from "./model-resolver.js";

/** A provider and model asked for by name; either may be left to the settings' or the provider's default. */
export interface WantedModel {
  provider?: string;
  model?: string;
}

export class ModelChoice {
  private target: Target | undefined;
  /** Whether the target's provider said it is ready (a target picked at session start has not been asked). */
  private checked = false;
  /** What `setThinking` chose; undefined falls back to the flag and the setting (`wanted`). */
  private thinkingChosen: ThinkingLevel | undefined;

  /** `wanted` reads the flags and settings in effect; `command` names the program in messages. */
  constructor(
    private readonly host: PluginHost,
    private readonly contributions: Contributions,
    private readonly hooks: HookBus,
    private readonly command: string,
    private readonly wanted: () => WantedModel & { thinking?: ThinkingLevel },
  ) {}

  get thinking(): ThinkingLevel | undefined {
    return this.thinkingChosen ?? this.wanted().thinking;
  }

  setThinking(level: ThinkingLevel | undefined): void {
    if (level !== undefined && !THINKING_LEVELS.includes(level))
      throw new Error(`A thinking level is one of ${THINKING_LEVELS.join(", ")} (got ${JSON.stringify(level)}).`);
    this.thinkingChosen = level;
  }

  get model(): ModelInfo | undefined {
    return this.target?.model;
  }

  /** Picks the session's model if none is yet, without asking its provider; a problem waits for the first run. */
  async pick(): Promise<void> {
    if (this.target) return;
    try {
      this.target = await this.resolve(this.wanted(), false);
    } catch {
      // The run resolves again and reports it.
    }
  }

  /** The session's target once its provider says it is ready; rejects with the reason why not. */
  async ready(): Promise<Target> {
    if (!this.target) this.target = await this.resolve(this.wanted(), true);
    else if (!this.checked) await ensureReady(this.target);
    this.checked = true;
    return this.target;
  }

  /** Switches the session to this model, once its provider says it is ready. */
  async set(provider: string, model: string): Promise<ModelInfo> {
    const target = await this.resolve({ provider, model }, true);
    this.target = target;
    this.checked = true;
    return target.model;
  }

  /**
   * Why the session's model cannot be used now, or undefined when it can; with `probe`, also whether its
   * provider's endpoint answers (`Provider.probe`; a probe that throws tells nothing).
   */
  problem(options: { probe?: boolean } = {}): Promise<string | undefined> {
    return this.ready().then(
      async ({ provider, model }) =>
        options.probe ? await provider.probe?.(model)?.catch(() => undefined) : undefined,
      (error: Error) => error.message,
    );
  }

  /** The target for a side request or a subagent: the one asked for (checked for readiness), else the session's. */
  targetFor(want: WantedModel | undefined): Promise<Target> {
    return want ? this.resolve(want, true) : this.ready();
  }

  /** The models of the providers registered now. */
  list(): ModelInfo[] {
    return this.contributions.providers.list().flatMap((e) => e.item.models().map((m) => ({ ...m, provider: e.name })));
  }

  /** Every model of every provider, activating lazy provider plugins. */
  all(): Promise<ModelInfo[]> {
    return allModels(this.host, this.contributions);
  }

  private resolve(want: WantedModel, checkReady: boolean): Promise<Target> {
    return resolveTarget(want, this.host, this.contributions, this.hooks, checkReady, this.command);
  }
}
