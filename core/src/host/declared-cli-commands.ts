/**
 * CLI commands declared in full in a manifest (`{ name, description, arguments }`): `keel --help` lists the
 * ones whose plugin has not loaded from the declaration, so what it shows must be what the plugin registers.
 */
import {
  contributionName,
  type CliCommandDeclaration,
  type CliCommandSpec,
  type ContributionTypes,
} from "@keel/extensions-api";
import type { PluginRecord } from "./plugin-record.js";

/** The declarations in full of the commands lazy plugins wait to contribute, by name (the first plugin's). */
export function waitingCliCommands(
  records: readonly PluginRecord[],
  waits: (r: PluginRecord, name: string) => boolean,
): CliCommandDeclaration[] {
  const out = new Map<string, CliCommandDeclaration>();
  for (const r of records)
    for (const entry of r.manifest?.contributes.cliCommands ?? [])
      if (typeof entry !== "string" && !out.has(entry.name) && waits(r, entry.name)) out.set(entry.name, entry);
  return [...out.values()];
}

/** Whether some manifest lists the command, by name or in full. */
export function listsCliCommand(records: readonly PluginRecord[], name: string): boolean {
  return records.some((r) => r.manifest?.contributes.cliCommands.some((e) => contributionName(e) === name));
}

/** What differs between a command's declaration in full and what the plugin registered, or undefined. */
export function cliCommandMismatch(
  declared: readonly (string | CliCommandDeclaration)[] | undefined,
  item: ContributionTypes["cliCommands"],
): string | undefined {
  const entry = declared?.find((e): e is CliCommandDeclaration => typeof e !== "string" && e.name === item.name);
  if (!entry) return undefined;
  const differs = (["description", "arguments"] as const).filter((key) => entry[key] !== (item as CliCommandSpec)[key]);
  if (differs.length === 0) return undefined;
  return (
    `registered CLI command "${item.name}" with another ${differs.join(" and ")} than its declaration in ` +
    `keel.contributes.cliCommands (${differs.map((k) => JSON.stringify(entry[k] ?? null)).join(", ")}), which ` +
    "`keel --help` shows while the plugin is not loaded; make them the same."
  );
}
