/**
 * `keel mcp list|add|remove|approve`: the servers in the settings and what keel knows of them, edits of
 * `mcpServers` in the user's settings file, and approving tool definitions that changed (held until then).
 */
import type { CliContext } from "@keel/extensions-api";
import { objectSection, updateUserSettings } from "@keel/extensions-api/user-settings";
import { parseServer } from "./servers.ts";
import { changedTools, ServerStore } from "./store.ts";

/** The usage text, naming the distribution's command. */
const usage = (keel: string) =>
  `usage: keel mcp list
       keel mcp add <name> [--env KEY=VALUE]... -- <command> [args...]   (a stdio server)
       keel mcp add <name> --url <url> [--header "Name: value"]...       (a Streamable HTTP server)
       keel mcp remove <name>
       keel mcp approve <server> [tool...]`.replace(/\bkeel mcp\b/g, `${keel} mcp`);

function list(servers: Record<string, unknown>, context: CliContext): number {
  const store = new ServerStore(context.keelHome);
  const names = Object.keys(servers);
  if (names.length === 0) {
    context.stdout(
      `No MCP servers configured. Add one with: ${context.command} mcp add <name> -- <command> [args...]\n`,
    );
    return 0;
  }
  for (const name of names) {
    const parsed = parseServer(name, servers[name]);
    if (!parsed.ok) {
      context.stdout(`${name}: ${parsed.error}\n`);
      continue;
    }
    const where = "url" in parsed.config ? parsed.config.url : [parsed.config.command, ...parsed.config.args].join(" ");
    const state = store.get(name);
    const held = state ? changedTools(state.tools, state.approved).map((t) => t.name) : [];
    const tools = state ? `${state.tools.length} tools known` : "not connected yet";
    context.stdout(`${name}  ${where}  (${tools}${held.length ? `; held: ${held.join(", ")}` : ""})\n`);
  }
  return 0;
}

function add(args: string[], options: Record<string, unknown>, context: CliContext): number {
  const [name, command, ...rest] = args;
  const url = typeof options.url === "string" ? options.url : undefined;
  if (!name || (!command && !url)) {
    context.stderr(`${usage(context.command)}\n`);
    return 2;
  }
  const pairs = (value: unknown, sep: string) =>
    Object.fromEntries(
      (Array.isArray(value) ? (value as string[]) : []).map((item) => {
        const at = item.indexOf(sep);
        return [item.slice(0, at).trim(), item.slice(at + sep.length).trim()];
      }),
    );
  const entry = url
    ? { url, headers: pairs(options.header, ":") }
    : { command: command!, args: rest, env: pairs(options.env, "=") };
  const checked = parseServer(name, entry);
  if (!checked.ok) {
    context.stderr(`${checked.error}\n`);
    return 2;
  }
  const file = updateUserSettings(context.keelHome, (settings) => {
    settings.mcpServers = { ...objectSection(settings.mcpServers), [name]: entry };
  });
  context.stdout(`Added MCP server "${name}" to ${file}.\n`);
  return 0;
}

function remove(name: string | undefined, context: CliContext): number {
  if (!name) {
    context.stderr(`${usage(context.command)}\n`);
    return 2;
  }
  let found = false;
  const file = updateUserSettings(context.keelHome, (settings) => {
    const servers = objectSection(settings.mcpServers);
    found = name in servers;
    delete servers[name];
    settings.mcpServers = servers;
  });
  if (!found) {
    context.stderr(`No MCP server "${name}" in ${file}; nothing was removed.\n`);
    return 1;
  }
  new ServerStore(context.keelHome).update(name, () => undefined);
  context.stdout(`Removed MCP server "${name}" from ${file}.\n`);
  return 0;
}

function approve(server: string | undefined, tools: string[], context: CliContext): number {
  const store = new ServerStore(context.keelHome);
  const state = server ? store.get(server) : undefined;
  if (!server || !state) {
    context.stderr(
      server
        ? `${context.command} has not connected to an MCP server "${server}" yet: nothing to approve.\n`
        : `${usage(context.command)}\n`,
    );
    return server ? 1 : 2;
  }
  const held = changedTools(state.tools, state.approved).filter((t) => tools.length === 0 || tools.includes(t.name));
  store.update(
    server,
    (s) => s && { ...s, approved: { ...s.approved, ...Object.fromEntries(held.map((t) => [t.name, t.hash])) } },
  );
  context.stdout(
    held.length === 0
      ? `Nothing of "${server}" is held.\n`
      : `Approved ${held.map((t) => t.name).join(", ")} of "${server}"; they are offered from the next session on.\n`,
  );
  return 0;
}

/** Runs `keel mcp <action> [args...]`; `servers` is the merged `mcpServers` section. */
export function runMcpCli(
  [action, ...args]: string[],
  options: Record<string, unknown>,
  context: CliContext,
  servers: Record<string, unknown>,
): number {
  switch (action) {
    case "list":
    case undefined:
      return list(servers, context);
    case "add":
      return add(args, options, context);
    case "remove":
      return remove(args[0], context);
    case "approve":
      return approve(args[0], args.slice(1), context);
    default:
      context.stderr(`${context.command} mcp: unknown action "${action}".\n${usage(context.command)}\n`);
      return 2;
  }
}
