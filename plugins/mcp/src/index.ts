/**
 * mcp: the tools, prompts and resources of MCP servers (`mcpServers` in settings) as keel tools and commands.
 * Registration only; `hub.ts` holds the servers and what they offer, `connection.ts` one server's life. With no
 * server configured, nothing loads but this file, the settings schema and the look for plugins' `.mcp.json`;
 * with servers, the SDK still waits for the first server to start, and a server starts when first needed: its
 * tools come from the list its last connection left in the cache.
 */
import { definePlugin, type Runtime } from "@keel/extensions-api";
import { objectSection } from "@keel/extensions-api/user-settings";
import { pluginServers } from "./plugin-servers.ts";
import { McpSettingsSchema } from "./settings.ts";

export default definePlugin({
  settings: McpSettingsSchema,
  async activate(api) {
    const raw = api.allSettings.mcpServers;
    if (raw !== undefined && (typeof raw !== "object" || raw === null || Array.isArray(raw)))
      api.log.warn(`mcpServers must be an object of server name → { command, args } or { url }; it is ignored.`);
    // The subcommand's code loads only when it runs.
    api.registerCliCommand({
      name: "mcp",
      description: "list, add or remove MCP servers, and approve changed tool definitions",
      arguments: "<list|add|remove|approve> [args...]",
      options: [
        { name: "url", description: "add: the server's Streamable HTTP URL", type: "string", valueName: "<url>" },
        { name: "header", description: 'add: an HTTP header, "Name: value"', type: "string[]", valueName: "<h>" },
        { name: "env", description: "add: an environment variable, KEY=VALUE", type: "string[]", valueName: "<kv>" },
      ],
      run: async (args, options, context) =>
        (await import("./cli.ts")).runMcpCli(args, options, context, objectSection(raw)),
    });
    const configured = objectSection(raw);
    let hub: import("./hub.ts").McpHub | undefined;
    let runtime: Runtime | undefined;
    api.registerCommand({
      name: "/mcp",
      description: "List MCP servers, their state and their tools",
      run: async (_args, rt) =>
        rt.notify(
          hub ? (await import("./commands.ts")).describeServers(hub, rt.app.command) : "No MCP servers are configured.",
          "info",
        ),
    });
    const unknown: string[] = [];
    const warn = (message: string) => api.log.warn(message);
    let created: typeof import("./create-hub.ts") | undefined;
    const addServers = async (entries: Record<string, unknown>) => {
      if (Object.keys(entries).length === 0) return;
      created ??= await import("./create-hub.ts");
      hub ??= created.createHub(api, () => runtime);
      unknown.push(...(await hub.add(entries)));
    };
    // Tools mcp_search chose stay callable on the branch they were chosen on.
    const restoreChosen = () => created && hub?.restoreChosen(created.chosenTools(api));
    api.events.on("history_replaced", restoreChosen);
    api.hooks.tap("session_start", { timeoutMs: api.settings.startTimeoutMs + 5_000 }, async () => {
      runtime = api.runtime;
      // Every session looks, so the look is imported with the plugin: a dynamic import cost ~1.4 ms more.
      await addServers(pluginServers(runtime.listPlugins(), warn));
      // Servers never seen before start now, so their tools are known before the first request.
      restoreChosen();
      await hub?.startUnknown(unknown.splice(0));
      await hub?.askPending();
    });
    // Servers a client passed for this session only (an ACP editor's): connected before the next prompt runs.
    let sessionServers: Promise<void> = Promise.resolve();
    api.events.on("session_mcp_servers", ({ servers, from }) => {
      sessionServers = sessionServers.then(async () => {
        const fresh = hub ? hub.newEntries(servers) : servers;
        await addServers(fresh);
        await hub?.startUnknown(unknown.splice(0));
      });
      sessionServers.catch((error: Error) => warn(`MCP servers from ${from} were not added: ${error.message}`));
    });
    api.hooks.tap("input", { timeoutMs: api.settings.startTimeoutMs + 5_000 }, async () => {
      await sessionServers.catch(() => undefined);
    });
    api.hooks.tap("session_end", () => hub?.stop());
    api.onDispose(() => hub?.stop());
    await addServers(configured);
  },
});
