/**
 * What `activate()` does once there are servers, in a module of its own so that a session without any loads
 * none of it: the hub, the resource tool, and reading server entries (a bad one is reported by name, the others
 * still run).
 */
import type { PluginAPI, Runtime } from "@keel/extensions-api";
import { McpHub } from "./hub.ts";
import { promptCommand } from "./prompts.ts";
import { resourceTool } from "./resources.ts";
import { searchTool } from "./search.ts";
import { parseServer, type McpSettings, type ServerConfig } from "./settings.ts";
import { ServerStore } from "./store.ts";

/** The entries that are servers; the others are reported through `warn`. */
export function parseServers(
  entries: Record<string, unknown>,
  warn: (message: string) => void,
): Record<string, ServerConfig> {
  const servers: Record<string, ServerConfig> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const parsed = parseServer(name, entry);
    if (parsed.ok) servers[name] = parsed.config;
    else warn(parsed.error);
  }
  return servers;
}

export function createHub(api: PluginAPI<McpSettings>, runtime: () => Runtime | undefined): McpHub {
  const hub = new McpHub({
    settings: api.settings,
    store: new ServerStore(api.keelHome),
    cwd: api.cwd,
    keelHome: api.keelHome,
    registerTool: (tool) => api.registerTool(tool),
    registerCommand: (command) => api.registerCommand(command),
    promptCommand,
    runtime,
    warn: (message) => api.log.warn(message),
    searchTool,
  });
  api.registerTool(resourceTool(hub));
  return hub;
}
