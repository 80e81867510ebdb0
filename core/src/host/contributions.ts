/**
 * The registries of everything plugins contribute, one per kind, sharing the clash rule.
 */
import type { CliCommandSpec, FlagSpec, Mode, OperationsBackend, Provider, SlashCommand, Tool } from "@keel/extensions-api";
import { aliasFor, Registry, type Owner } from "../registry/registry.js";

export interface Contributions {
  tools: Registry<Tool>;
  providers: Registry<Provider>;
  commands: Registry<SlashCommand>;
  modes: Registry<Mode>;
  flags: Registry<FlagSpec>;
  cliCommands: Registry<CliCommandSpec>;
  ops: Registry<OperationsBackend>;
}

export function createContributions(prefer: () => Partial<Record<string, Record<string, string>>>, warn: (message: string, owner: Owner) => void): Contributions {
  const make = <T>(kind: string, plural: string, alias: (name: string, owner: Owner) => string) => new Registry<T>(kind, alias, () => prefer()[plural] ?? {}, warn);
  return {
    tools: make<Tool>("tool", "tools", aliasFor.tool),
    providers: make<Provider>("provider", "providers", aliasFor.other),
    commands: make<SlashCommand>("command", "commands", aliasFor.command),
    modes: make<Mode>("mode", "modes", aliasFor.other),
    flags: make<FlagSpec>("flag", "flags", aliasFor.other),
    cliCommands: make<CliCommandSpec>("CLI command", "cliCommands", aliasFor.other),
    ops: make<OperationsBackend>("operations backend", "ops", aliasFor.other),
  };
}
