/**
 * Whether any hook can run, answered without loading the bridge: a `hooks` key in the settings, or a loaded
 * plugin that ships `hooks/hooks.json` (Claude Code's plugin layout).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PluginAPI } from "@keel/extensions-api";
import { SWITCHES } from "./switches.ts";

/** Where a plugin ships its hooks. */
export const hooksFile = (pluginDir: string) => join(pluginDir, "hooks", "hooks.json");

export function hooksConfigured(api: PluginAPI): boolean {
  if (api.managedSettings.disableAllHooks === true) return false;
  // A switch set where it does not count is configured too: the bridge says it was ignored.
  if (api.allSettings.hooks !== undefined || SWITCHES.some((key) => api.allSettings[key] !== undefined)) return true;
  return api.runtime
    .listPlugins()
    .some((p) => (p.state === "active" || p.state === "lazy") && existsSync(hooksFile(p.dir)));
}
