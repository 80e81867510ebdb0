/**
 * Servers that plugins bring: a plugin folder's own `.mcp.json` (`{ "mcpServers": { … } }`, the layout Claude
 * Code's plugins use). A plugin is code the user installed (a project's plugins load only once the folder is
 * trusted), so its servers need no further trust; they start when first needed like any other.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { PluginInfo } from "@keel/extensions-api";

/** Each enabled plugin's servers, by server name; a file that is not JSON is reported and skipped. */
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
    try {
      const servers = (JSON.parse(text) as { mcpServers?: unknown }).mcpServers;
      if (typeof servers !== "object" || servers === null || Array.isArray(servers))
        throw new Error('it has no "mcpServers" object');
      Object.assign(out, servers);
    } catch (error) {
      warn(`${plugin.name}'s ${file} adds no MCP server: ${(error as Error).message}.`);
    }
  }
  return out;
}
