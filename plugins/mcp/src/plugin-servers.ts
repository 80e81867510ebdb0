/**
 * Servers that plugins bring: what a manifest lists (`keel.content.mcpServers`: files or servers inline, which
 * another format's manifest is read into) and a keel plugin's own `.mcp.json` (`{ "mcpServers": { … } }`, or the
 * flat form Claude Code's plugins also use), with `${CLAUDE_PLUGIN_ROOT}` (and keel's `${KEEL_PLUGIN_ROOT}`) naming the
 * plugin's folder. A plugin is code the user installed (a project's plugins load only once the folder is
 * trusted), so its servers need no further trust; they start when first needed like any other.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PluginInfo } from "@keel/extensions-api";
import { mcpServersOf } from "@keel/extensions-api/mcp-config";

/** The entry with the plugin's folder in place of its variables (the others are filled when it starts). */
function inPlugin(entry: unknown, dir: string): unknown {
  // An Agent Plugins server's PLUGIN_DATA folder must exist before it starts (the spec's §9.1).
  const data = (entry as { env?: { PLUGIN_DATA?: unknown } })?.env?.PLUGIN_DATA;
  if (typeof data === "string") mkdirSync(data, { recursive: true });
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
    const listed = plugin.content?.mcpServers ?? [];
    const fallback = join(plugin.dir, ".mcp.json");
    // Another format's adapter lists its default file itself; a keel plugin's is read when it does not list it.
    const items = !plugin.content?.format && !listed.includes(fallback) ? [fallback, ...listed] : listed;
    for (const item of items) {
      const read = typeof item === "string" ? readFile(item, item !== fallback || listed.includes(item)) : item;
      if (read === undefined) continue;
      const servers = mcpServersOf(read);
      const where = typeof item === "string" ? item : "its manifest";
      if ("problem" in servers) warn(`${plugin.name}'s ${where} adds no MCP server: ${servers.problem}.`);
      else for (const [name, entry] of Object.entries(servers.servers)) out[name] = inPlugin(entry, plugin.dir);
    }
  }
  return out;

  function readFile(file: string, listed: boolean): unknown {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if (listed) warn(`an MCP file a plugin lists, ${file}, cannot be read (${(error as Error).message}).`);
      return undefined;
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      warn(`${file} adds no MCP server: it is not JSON (${(error as Error).message}).`);
      return undefined;
    }
  }
}
