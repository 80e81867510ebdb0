/**
 * A provider plugin activated against a stand-in of the plugin API that keeps the providers it registers:
 * how the conformance suite (and tests, and the bench) reach a plugin's providers without a whole host.
 * Members a provider plugin should not need while activating throw an error that names them.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { PluginAPI, PluginDefinition, Provider } from "@keel/extensions-api";
import { registerCompatibleProvider, type ProviderHost } from "../compatible.ts";

/** A plugin folder (its package.json's `keel.entry` is imported) or a plugin definition. */
export type PluginUnderTest = string | PluginDefinition;

/**
 * A plugin folder as the host activates it: its manifest's `keel.entry` imported, then the providers its
 * manifest declares in `keel.providers` registered (a plugin may have only those, and no entry).
 */
export async function importPlugin(dir: string): Promise<PluginDefinition> {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    keel?: { entry?: string; providers?: unknown[] };
  };
  const { entry, providers = [] } = pkg.keel ?? {};
  if (!entry && providers.length === 0)
    throw new Error(
      `${dir}/package.json has neither keel.entry nor keel.providers; the conformance suite loads ` +
        `the plugin from there`,
    );
  let code: PluginDefinition | undefined;
  if (entry) {
    const mod = (await import(pathToFileURL(resolve(dir, entry)).href)) as { default?: PluginDefinition };
    if (typeof mod.default?.activate !== "function")
      throw new Error(`${resolve(dir, entry)} must export default definePlugin({ activate(api) { ... } })`);
    code = mod.default;
  }
  return {
    async activate(api) {
      await code?.activate(api);
      for (const declared of providers)
        registerCompatibleProvider(api as ProviderHost, declared as Parameters<typeof registerCompatibleProvider>[1]);
    },
  };
}

/** Activates `plugin` with `allSettings` and returns what it registered, keyed by provider id. */
export async function activateProviderPlugin(
  plugin: PluginUnderTest,
  allSettings: Record<string, unknown> = {},
  warnings: string[] = [],
): Promise<Map<string, Provider>> {
  const definition = typeof plugin === "string" ? await importPlugin(plugin) : plugin;
  const name = typeof plugin === "string" ? plugin : "(plugin under test)";
  const providers = new Map<string, Provider>();
  const given: Partial<PluginAPI> = {
    plugin: { name, version: "0.0.0", dir: typeof plugin === "string" ? plugin : process.cwd(), source: "cli" },
    settings: undefined,
    allSettings,
    cwd: process.cwd(),
    keelHome: process.cwd(),
    log: {
      debug() {},
      info() {},
      warn: (m: string) => void warnings.push(m),
      error: (m: string) => void warnings.push(m),
    },
    registerProvider(provider) {
      if (providers.has(provider.id)) throw new Error(`provider "${provider.id}" was registered twice`);
      providers.set(provider.id, provider);
    },
    onDispose() {},
  };
  const api = new Proxy(given, {
    get(target, key) {
      if (key in target) return target[key as keyof PluginAPI];
      if (typeof key === "symbol" || key === "then") return undefined;
      throw new Error(
        `the provider conformance suite activates a plugin with registerProvider, allSettings, ` +
          `settings and log only; the plugin used api.${key}`,
      );
    },
  }) as PluginAPI;
  await definition.activate(api);
  return providers;
}
