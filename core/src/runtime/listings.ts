/** What `runtime.listTools` and `runtime.listCommands` show: name, description and owning plugin. */
import type { ReadOnlySource } from "@keel/extensions-api";
import type { Contributions } from "../host/registries.js";
import type { PluginHost } from "../host/plugin-host.js";

/** One listed tool or command. */
export interface Listed {
  name: string;
  description: string;
  plugin: string;
}

/** The registered tools, each with who vouches for its read-only claim. */
export function listTools(contributions: Contributions): (Listed & { readOnlyFrom: ReadOnlySource })[] {
  return contributions.tools.list().map((e) => ({
    name: e.name,
    description: e.item.description,
    plugin: e.owner.name,
    readOnlyFrom: e.item.readOnlyFrom ?? "author",
  }));
}

/** Active commands, and those of plugins still waiting to be loaded (the first use loads them). */
export function listCommands(contributions: Contributions, host: PluginHost): Listed[] {
  const active = contributions.commands
    .list()
    .map((e) => ({ name: e.name, description: e.item.description, plugin: e.owner.name }));
  const waiting = host
    .list()
    .filter((p) => p.state === "lazy")
    .flatMap((p) =>
      p.contributes.commands
        .filter((name) => !active.some((c) => c.name === name))
        .map((name) => ({ name, description: `(from ${p.name}, loaded on first use)`, plugin: p.name })),
    );
  return [...active, ...waiting];
}
