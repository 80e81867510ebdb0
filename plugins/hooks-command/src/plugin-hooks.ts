/**
 * Hooks a plugin ships: what its manifest lists (`keel.content.hooks`: hooks files or the `hooks` object inline,
 * which a Claude Code, Codex or Agent Plugins package's manifest is read into), else its `hooks/hooks.json`
 * (Claude Code's plugin format: `{ "description"?, "hooks": { … } }`). Only plugins the host loaded are looked
 * at, so a project's plugins count only once the folder is trusted: this plugin never reads project files by
 * itself.
 */
import { readFileSync } from "node:fs";
import type { PluginInfo } from "@keel/extensions-api";
import { parseHooks, type ConfiguredHook } from "./config.ts";
import { hooksFile } from "./configured.ts";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function fromFile(plugin: PluginInfo, file: string, problems: string[], listed: boolean): ConfiguredHook[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    // No hooks.json (or no folder) is the usual case; a file the manifest names must be there.
    if (listed)
      problems.push(`plugin ${plugin.name}: its hooks file ${file} cannot be read (${(error as Error).message})`);
    return [];
  }
  const origin = `plugin ${plugin.name}`;
  try {
    const parsed = JSON.parse(text) as { hooks?: unknown };
    return parseHooks(parsed.hooks, `${origin} (${file})`, problems, plugin.dir);
  } catch (error) {
    problems.push(`${origin}: ${file} is not JSON (${(error as Error).message}); none of its hooks run`);
    return [];
  }
}

export function pluginHooks(plugins: readonly PluginInfo[], problems: string[]): ConfiguredHook[] {
  return plugins.flatMap((plugin) => {
    if (plugin.state !== "active" && plugin.state !== "lazy") return [];
    const listed = plugin.content?.hooks ?? [];
    // Another format's adapter lists its default file itself; a keel plugin's is read when it does not list it.
    const fallback = hooksFile(plugin.dir);
    const own =
      !plugin.content?.format && !listed.includes(fallback) ? fromFile(plugin, fallback, problems, false) : [];
    return own.concat(
      listed.flatMap((item) =>
        typeof item === "string"
          ? fromFile(plugin, item, problems, true)
          : parseHooks(
              isObject(item.hooks) ? item.hooks : item,
              `plugin ${plugin.name} (its manifest)`,
              problems,
              plugin.dir,
            ),
      ),
    );
  });
}
