/**
 * Whether any hook can run, answered without loading the bridge: a `hooks` key in the settings, or a loaded
 * plugin that ships `hooks/hooks.json` (Claude Code's plugin layout).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PluginAPI } from "@keel/extensions-api";

/** Where a plugin ships its hooks. */
export const hooksFile = (pluginDir: string) => join(pluginDir, "hooks", "hooks.json");

export function hooksConfigured(api: PluginAPI): boolean {
  if (api.allSettings.hooks !== undefined) return true;
  return api.runtime
    .listPlugins()
    .some((p) => (p.state === "active" || p.state === "lazy") && existsSync(hooksFile(p.dir)));
}
