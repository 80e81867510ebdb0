/**
 * Picking the provider and model: `resolve_model` handlers first, then the host's rule — the named provider
 * (and model) when given, else the first installed provider that says it is ready. Provider plugins are
 * activated only when the rule needs them.
 */
import type { ModelInfo, Provider } from "@keel/extensions-api";
import type { HookBus } from "@keel/kernel";
import type { Contributions } from "../host/registries.js";
import type { PluginHost } from "../host/plugin-host.js";

export interface Target {
  provider: Provider;
  model: ModelInfo;
}

/** A model id the provider does not list: usable, with conservative limits. */
function unlistedModel(provider: string, id: string): ModelInfo {
  return { id, provider, contextWindow: 128_000, maxOutput: 16_384 };
}

export async function allModels(host: PluginHost, contributions: Contributions): Promise<ModelInfo[]> {
  await host.activateFor("providers", "*");
  return contributions.providers
    .list()
    .flatMap((entry) => safeModels(entry.item).map((m) => ({ ...m, provider: entry.name })));
}

function safeModels(provider: Provider): ModelInfo[] {
  try {
    return provider.models();
  } catch {
    return [];
  }
}

/**
 * `checkReady: false` picks without asking the named provider whether it can be used (a missing key), so the
 * session's model is known before a run needs it; `ensureReady` asks later.
 */
export async function resolveTarget(
  want: { provider?: string; model?: string },
  host: PluginHost,
  contributions: Contributions,
  hooks: HookBus,
  checkReady = true,
  /** The distribution's command, for the messages (`reviewer models`). */
  command = "keel",
): Promise<Target> {
  const ready = (target: Target) => (checkReady ? ensureReady(target) : target);
  if (hooks.has("resolve_model")) {
    const available = await allModels(host, contributions);
    const picked = await hooks.provide("resolve_model", { ...want, available });
    const provider = picked && contributions.providers.get(picked.provider)?.item;
    if (picked && provider) return ready({ provider, model: picked });
  }

  if (want.provider) {
    await host.activateFor("providers", want.provider);
    // An id no manifest lists may be one a plugin serving a provider API registers from the user's settings.
    if (!contributions.providers.get(want.provider)) await host.activateProviderApiServers();
    const entry = contributions.providers.get(want.provider);
    if (!entry) {
      const known = (await allModels(host, contributions)).map((m) => m.provider);
      const list = [...new Set(known)].join(", ") || "none";
      throw new Error(
        `Unknown provider "${want.provider}". Installed providers: ${list}. Run \`${command} ` +
          `models\` to see them with their models.`,
      );
    }
    const models = safeModels(entry.item);
    const model = want.model
      ? (models.find((m) => m.id === want.model) ?? unlistedModel(entry.name, want.model))
      : models[0];
    if (!model) throw new Error(`Provider "${want.provider}" lists no models; pass --model <id>.`);
    return ready({ provider: entry.item, model });
  }

  const models = await allModels(host, contributions);
  if (want.model) {
    const model = models.find((m) => m.id === want.model);
    if (!model)
      throw new Error(
        `Unknown model "${want.model}". Pass --provider too, or run \`${command} models\` to see the known ones.`,
      );
    return ready({ provider: contributions.providers.get(model.provider)!.item, model });
  }

  const reasons: string[] = [];
  for (const entry of contributions.providers.list()) {
    const model = safeModels(entry.item)[0];
    if (!model) continue;
    const problem = await entry.item.checkReady?.(model);
    if (!problem) return { provider: entry.item, model };
    reasons.push(`${entry.name}: ${problem}`);
  }
  throw new Error(
    `No provider is ready to use. ${
      reasons.length > 0 ? reasons.join(" ") : "No provider plugin is installed."
    } Pick one with --provider <id>.`,
  );
}

export async function ensureReady(target: Target): Promise<Target> {
  const problem = await target.provider.checkReady?.(target.model);
  if (problem) throw new Error(problem);
  return target;
}
