/**
 * Which model the session talks to: the one `setModel` chose, else the `--provider`/`--model` flags, else the
 * settings. Held in a `ModelSlot` (picked at session start, checked for readiness on first use).
 */
import type { ModelInfo } from "@keel/extensions-api";
import type { HookBus } from "@keel/kernel";
import type { Contributions } from "../host/registries.js";
import type { PluginHost } from "../host/plugin-host.js";
import { allModels, resolveTarget, type Target } from "./model-resolver.js";
import { ModelSlot } from "./model-slot.js";

/** A provider and model asked for by name; either may be left to the settings' or the provider's default. */
export interface WantedModel {
  provider?: string;
  model?: string;
}

export class ModelChoice {
  private readonly slot = new ModelSlot((checkReady) => this.resolve(this.wanted(), checkReady));

  /** `wanted` reads the flags and settings in effect; `command` names the program in messages. */
  constructor(
    private readonly host: PluginHost,
    private readonly contributions: Contributions,
    private readonly hooks: HookBus,
    private readonly command: string,
    private readonly wanted: () => WantedModel,
  ) {}

  get model(): ModelInfo | undefined {
    return this.slot.model;
  }

  /** Picks the session's model if none is yet, without asking its provider; a problem waits for the first run. */
  pick(): Promise<void> {
    return this.slot.pick();
  }

  /** The session's target once its provider says it is ready; rejects with the reason why not. */
  ready(): Promise<Target> {
    return this.slot.ready();
  }

  /** Switches the session to this model, once its provider says it is ready. */
  async set(provider: string, model: string): Promise<ModelInfo> {
    const target = await this.resolve({ provider, model }, true);
    this.slot.set(target);
    return target.model;
  }

  /**
   * Why the session's model cannot be used now, or undefined when it can; with `probe`, also whether its
   * provider's endpoint answers (`Provider.probe`; a probe that throws tells nothing).
   */
  problem(options: { probe?: boolean } = {}): Promise<string | undefined> {
    return this.slot.ready().then(
      async ({ provider, model }) =>
        options.probe ? await provider.probe?.(model)?.catch(() => undefined) : undefined,
      (error: Error) => error.message,
    );
  }

  /** The target for a side request or a subagent: the one asked for (checked for readiness), else the session's. */
  targetFor(want: WantedModel | undefined): Promise<Target> {
    return want ? this.resolve(want, true) : this.slot.ready();
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
