/**
 * Servers that plugins bring: a plugin folder's own `.mcp.json` (`{ "mcpServers": { … } }`, or the flat form
 * Claude Code's plugins also use), with `${CLAUDE_PLUGIN_ROOT}` (and keel's `${KEEL_PLUGIN_ROOT}`) naming the
 * plugin's folder. A plugin is code the user installed (a project's plugins load only once the folder is
 * trusted), so its servers need no further trust; they start when first needed like any other.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PluginInfo } from "@keel/extensions-api";
import { mcpServersOf } from "@keel/extensions-api/mcp-config";

/** The entry with the plugin's folder in place of its variables (the others are filled when it starts). */
function inPlugin(entry: unknown, dir: string): unknown {
  const folder = JSON.stringify(dir).slice(1, -1);
  return JSON.parse(JSON.stringify(entry).replace(/\$\{(CLAUDE|KEEL)_PLUGIN_ROOT\}/g, () => folder));
}

/** Each enabled plugin's servers, by server name; a file that holds none is reported and skipped. */
export function pluginServers(
  plugins: readonly PluginInfo[],
  warn: (message: string) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const plugin of plugins) {
    if (plugin.state === "failed" || plugin.state === "disabled") continue;
    const file = join(plugin.dir, ".mcp.json");
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    let read: ReturnType<typeof mcpServersOf>;
    try {
      read = mcpServersOf(JSON.parse(text));
    } catch (error) {
      read = { problem: `it is not JSON (${(error as Error).message})` };
    }
    if ("problem" in read) warn(`${plugin.name}'s ${file} adds no MCP server: ${read.problem}.`);
    else for (const [name, entry] of Object.entries(read.servers)) out[name] = inPlugin(entry, plugin.dir);
  }
  return out;
}
