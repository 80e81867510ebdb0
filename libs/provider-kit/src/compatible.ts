/**
 * One call per provider: `registerCompatibleProvider(api, { id, api: "openai", baseUrl, keyEnv, models, quirks })`
 * builds a provider on one of the kit's wire formats and registers it for the calling plugin. The plugin that
 * serves an API also adds the providers settings define for it (`serveSettingsProviders`).
 */
import type { PluginAPI, Provider } from "@keel/extensions-api";
import { WIRE_FORMATS, type ApiName } from "./formats.ts";
import { createHttpProvider, effectiveDeps, type HttpProviderDeps } from "./http-provider.ts";
import {
  CompatibleProviderSchema,
  compatibleConfig,
  issues,
  parseProviderEntry,
  providerEntries,
  settingsConfig,
  type CompatibleProviderSpec,
} from "./settings.ts";

/** The part of the plugin API the kit uses, so the conformance suite and tests can pass a stand-in. */
export type ProviderHost = Pick<PluginAPI, "registerProvider" | "allSettings" | "log" | "plugin">;

/** Ids each plugin registered through the kit, so settings entries for them adjust instead of adding. */
const registered = new WeakMap<object, Set<string>>();

/**
 * Builds the provider `spec` describes, adjusted by the user's `providers.<id>` settings entry (base URL, key,
 * headers, extra models, retry), and registers it. Throws, naming the plugin, when `spec` is invalid.
 */
export function registerCompatibleProvider(
  api: ProviderHost,
  spec: CompatibleProviderSpec,
  deps: HttpProviderDeps = {},
): Provider {
  const parsed = CompatibleProviderSchema.safeParse(spec);
  if (!parsed.success) {
    const id = typeof (spec as { id?: unknown })?.id === "string" ? ` "${spec.id}"` : "";
    throw new Error(
      `${api.plugin.name}: provider${id} is not a valid compatible-provider description: ${issues(parsed.error)}`,
    );
  }
  const warn = (message: string) => api.log.warn(message);
  const raw = providerEntries(api.allSettings, warn).find(([id]) => id === parsed.data.id)?.[1];
  const own = raw === undefined ? undefined : parseProviderEntry(parsed.data.id, raw, warn);
  const provider = createHttpProvider(
    compatibleConfig(parsed.data, own, effectiveDeps(deps).env ?? process.env),
    WIRE_FORMATS[parsed.data.api],
    deps,
  );
  api.registerProvider(provider);
  const ids = registered.get(api) ?? new Set<string>();
  ids.add(provider.id);
  registered.set(api, ids);
  return provider;
}

/**
 * Registers a provider for every `providers.<id>` settings entry whose `api` is `apiName` (an entry without
 * `api` counts as naming its own id), except the ids this plugin already registered through the kit. Invalid
 * entries are reported as warnings and skipped. Returns the providers registered.
 */
export function serveSettingsProviders(api: ProviderHost, apiName: ApiName, deps: HttpProviderDeps = {}): Provider[] {
  const warn = (message: string) => api.log.warn(message);
  const mine = registered.get(api) ?? new Set<string>();
  const out: Provider[] = [];
  for (const [id, raw] of providerEntries(api.allSettings, warn)) {
    const named = (raw as { api?: unknown } | null)?.api ?? id;
    if (named !== apiName || mine.has(id)) continue;
    const entry = parseProviderEntry(id, raw, warn);
    if (!entry) continue;
    const config = settingsConfig(id, entry);
    if (typeof config === "string") {
      warn(config);
      continue;
    }
    const provider = createHttpProvider(config, WIRE_FORMATS[apiName], deps);
    api.registerProvider(provider);
    out.push(provider);
  }
  return out;
}
