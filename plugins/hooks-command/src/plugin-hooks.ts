/**
 * Hooks a plugin ships in `hooks/hooks.json` (Claude Code's plugin format: `{ "description"?, "hooks": { … } }`).
 * Only plugins the host loaded are looked at, so a project's plugins count only once the folder is trusted:
 * this plugin never reads project files by itself.
 */
import { readFileSync } from "node:fs";
import type { PluginInfo } from "@keel/extensions-api";
import { parseHooks, type ConfiguredHook } from "./config.ts";
import { hooksFile } from "./configured.ts";

export function pluginHooks(plugins: readonly PluginInfo[], problems: string[]): ConfiguredHook[] {
  return plugins.flatMap((plugin) => {
    if (plugin.state !== "active" && plugin.state !== "lazy") return [];
    const file = hooksFile(plugin.dir);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return []; // No hooks.json (or no folder): the usual case.
    }
    const origin = `plugin ${plugin.name}`;
    try {
      const parsed = JSON.parse(text) as { hooks?: unknown };
      return parseHooks(parsed.hooks, `${origin} (${file})`, problems, plugin.dir);
    } catch (error) {
      problems.push(`${origin}: ${file} is not JSON (${(error as Error).message}); none of its hooks run`);
      return [];
    }
  });
}
