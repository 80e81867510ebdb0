/**
 * What `activate()` does once there are servers, in a module of its own so that a session without any loads
 * none of it: the hub and the resource tool.
 */
import type { PluginAPI, Runtime } from "@keel/extensions-api";
import { McpHub } from "./hub.ts";
import { promptCommand } from "./prompts.ts";
import { resourceTool } from "./resources.ts";
import { searchTool } from "./search.ts";
import type { McpSettings } from "./settings.ts";
import { ServerStore } from "./store.ts";

/** The session entry that keeps the tools `mcp_search` chose. */
export const CHOSEN_ENTRY = "mcp_search_chosen";

/** The tools chosen on the session's active branch, from its entries. */
export function chosenTools(api: PluginAPI<McpSettings>): string[] {
  return api.session.entries(CHOSEN_ENTRY).flatMap((entry) => {
    const chosen = (entry.data as { chosen?: unknown } | null)?.chosen;
    return Array.isArray(chosen) ? chosen.filter((name): name is string => typeof name === "string") : [];
  });
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
    rememberChosen: (names) => api.session.append(CHOSEN_ENTRY, { chosen: names }),
  });
  api.registerTool(resourceTool(hub));
  return hub;
}
