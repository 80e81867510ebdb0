/**
 * The two switches only an administrator may turn, as in Claude Code's managed settings: `disableAllHooks` runs
 * no hook at all, `allowManagedHooksOnly` runs only the managed file's. They are read from the managed layer
 * alone; set in the user's file, a project or `--settings` they are ignored with a warning, so nobody below the
 * administrator can take a team's guard away (the host adds every layer's `hooks` lists up for the same reason).
 */
import type { PluginAPI } from "@keel/extensions-api";

export const SWITCHES = ["disableAllHooks", "allowManagedHooksOnly"] as const;

export interface HookSources {
  /** The `hooks` value to run. */
  settings: unknown;
  /** Whether plugins' `hooks/hooks.json` run. */
  plugins: boolean;
  /** Switches set where they do not count. */
  ignored: string[];
}

export function hookSources(api: Pick<PluginAPI, "allSettings" | "managedSettings">): HookSources {
  const managed = api.managedSettings;
  const ignored = SWITCHES.filter((key) => api.allSettings[key] !== undefined && managed[key] === undefined).map(
    (key) => `"${key}" turns hooks off only in the managed settings; it was ignored, and every layer's hooks run`,
  );
  if (managed.disableAllHooks === true) return { settings: undefined, plugins: false, ignored };
  if (managed.allowManagedHooksOnly === true) return { settings: managed.hooks, plugins: false, ignored };
  return { settings: api.allSettings.hooks, plugins: true, ignored };
}
