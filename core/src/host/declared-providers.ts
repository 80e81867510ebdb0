/**
 * Providers a manifest declares in data (`keel.providers`), registered for their plugin with
 * `@keel/provider-kit`'s `registerCompatibleProvider` — the host's copy of the library, loaded through the
 * plugin loader only when such a plugin activates. Core knows the library's one-call API, not its formats.
 */
import type { PluginAPI } from "@keel/extensions-api";
import { hostLibrary } from "./cjs-entry.js";
import { HOST_LIBRARY } from "./host-specifiers.js";

interface ProviderKit {
  registerCompatibleProvider(api: PluginAPI, spec: unknown): unknown;
}

/**
 * Registers each declaration with the plugin's own API (so the kit sees the settings sections the manifest's
 * `keel.reads` names); the first invalid one throws an error that names its index and id.
 */
export async function registerDeclaredProviders(
  api: PluginAPI,
  declarations: readonly { id: string }[],
): Promise<void> {
  if (declarations.length === 0) return;
  const kit = hostLibrary(HOST_LIBRARY) as ProviderKit;
  declarations.forEach((declaration, i) => {
    try {
      kit.registerCompatibleProvider(api, declaration);
    } catch (error) {
      throw new Error(`keel.providers[${i}] ("${declaration.id}") in its manifest: ${(error as Error).message}`);
    }
  });
}
