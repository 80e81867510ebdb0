/**
 * What `activate()` does once servers are configured, in a module of its own so that a session without any
 * loads none of it: read the entries (a bad one is reported by name, the others still run), make the hub,
 * and register the resource tool.
 */
import type { PluginAPI, Runtime } from "@keel/extensions-api";
import { McpHub } from "./hub.ts";
import { resourceTool } from "./resources.ts";
import { searchTool } from "./search.ts";
import { parseServer, type McpSettings, type ServerConfig } from "./settings.ts";
import { ServerStore } from "./store.ts";

export function createHub(
  api: PluginAPI<McpSettings>,
  configured: Record<string, unknown>,
  runtime: () => Runtime | undefined,
): McpHub | undefined {
  const servers: Record<string, ServerConfig> = {};
  for (const [name, entry] of Object.entries(configured)) {
    const parsed = parseServer(name, entry);
    if (parsed.ok) servers[name] = parsed.config;
    else api.log.warn(parsed.error);
  }
  if (Object.keys(servers).length === 0) return undefined;
  const hub = new McpHub({
    settings: api.settings,
    servers,
    store: new ServerStore(api.keelHome),
    cwd: api.cwd,
    keelHome: api.keelHome,
    registerTool: (tool) => api.registerTool(tool),
    runtime,
    warn: (message) => api.log.warn(message),
    searchTool,
  });
  api.registerTool(resourceTool(hub));
  return hub;
}
