/**
 * The registries of everything plugins contribute, one per kind of `CONTRIBUTIONS`, sharing the clash rule,
 * and each kind's admission rule: how an item is named and what makes one unacceptable.
 */
import { CONTRIBUTION_KINDS, CONTRIBUTIONS, TOOL_NAME, type ContributionTypes } from "@keel/extensions-api";
import { isLazySchema } from "@keel/extensions-api/lazy-schema";
import { aliasFor, Registry, type Owner } from "./registry.js";

export type Contributions = { [K in keyof ContributionTypes]: Registry<ContributionTypes[K]> };

/** How the host takes in one item of a kind. */
export interface Admission<T> {
  /** The name it is registered under. */
  nameOf(item: T): string;
  /** Why the item cannot be registered (it throws at the plugin with this), or undefined. */
  problem?(item: T): string | undefined;
  /** The item as registered (e.g. a command name gains its `/`). */
  normalise?(item: T): T;
  /** The alias the item gets when another plugin keeps its name. */
  alias(name: string, owner: Owner): string;
}

/** One admission rule per kind; a kind without one does not compile. */
export type AdmissionTable<T extends object = ContributionTypes> = { [K in keyof T]: Admission<T[K]> };

export const ADMISSIONS: AdmissionTable = {
  tools: {
    nameOf: (tool) => tool.name,
    problem: (tool) =>
      !tool || typeof tool.name !== "string" || !TOOL_NAME.test(tool.name)
        ? `a tool name must be 1-64 letters, digits, _ or - (got ${JSON.stringify(tool?.name)})`
        : typeof tool.execute !== "function" ||
            // A lazy schema is a zod schema by its type; asking it for `safeParse` would build it.
            (!isLazySchema(tool.parameters) && typeof tool.parameters?.safeParse !== "function")
          ? `tool "${tool.name}" needs a zod \`parameters\` schema and an \`execute\` function`
          : undefined,
    alias: aliasFor.tool,
  },
  commands: {
    nameOf: (command) => command.name,
    problem: (command) =>
      typeof command?.name !== "string" || typeof command.run !== "function"
        ? `a command needs a \`name\` and a \`run\` function (got ${JSON.stringify(command?.name)})`
        : undefined,
    normalise: (command) => (command.name.startsWith("/") ? command : { ...command, name: `/${command.name}` }),
    alias: aliasFor.command,
  },
  providers: {
    nameOf: (provider) => provider.id,
    problem: (provider) =>
      typeof provider?.stream !== "function" || typeof provider.models !== "function"
        ? `provider "${provider?.id}" needs \`stream\` and \`models\` functions`
        : undefined,
    alias: aliasFor.other,
  },
  modes: {
    nameOf: (mode) => mode.name,
    problem: (mode) =>
      typeof mode?.name !== "string" || typeof mode.run !== "function"
        ? `a mode needs a \`name\` and a \`run\` function (got ${JSON.stringify(mode?.name)})`
        : undefined,
    alias: aliasFor.other,
  },
  flags: {
    nameOf: (flag) => flag.name,
    problem: (flag) =>
      typeof flag?.name !== "string" || flag.name.length === 0
        ? `a flag needs a \`name\` (got ${JSON.stringify(flag?.name)})`
        : undefined,
    alias: aliasFor.other,
  },
  cliCommands: {
    nameOf: (command) => command.name,
    problem: (command) =>
      typeof command?.name !== "string" || typeof command.run !== "function"
        ? `a CLI command needs a \`name\` and a \`run\` function (got ${JSON.stringify(command?.name)})`
        : undefined,
    alias: aliasFor.other,
  },
  ops: {
    nameOf: (backend) => backend.name,
    problem: (backend) =>
      typeof backend?.name !== "string" || typeof backend.create !== "function"
        ? `an operations backend needs a \`name\` and a \`create\` function (got ${JSON.stringify(backend?.name)})`
        : undefined,
    alias: aliasFor.other,
  },
  sessionStores: {
    nameOf: (store) => store.name,
    problem: (store) =>
      typeof store?.name !== "string" ||
      ["list", "newSession", "switchTo", "fork", "tree", "jump"].some(
        (method) => typeof (store as unknown as Record<string, unknown>)[method] !== "function",
      )
        ? `a session store needs a \`name\` and the functions list, newSession, switchTo, fork, ` +
          `tree and jump (got ${JSON.stringify(store?.name)})`
        : undefined,
    alias: aliasFor.other,
  },
  statusEntries: {
    nameOf: (entry) => entry.name,
    problem: (entry) =>
      typeof entry?.name !== "string" || typeof entry.text !== "function"
        ? `a status entry needs a \`name\` and a \`text\` function (got ${JSON.stringify(entry?.name)})`
        : undefined,
    alias: aliasFor.other,
  },
  widgets: {
    nameOf: (widget) => widget.name,
    problem: (widget) =>
      typeof widget?.name !== "string" || typeof widget.render !== "function"
        ? `a widget needs a \`name\` and a \`render\` function (got ${JSON.stringify(widget?.name)})`
        : undefined,
    alias: aliasFor.other,
  },
  messageRenderers: {
    nameOf: (renderer) => renderer.kind,
    problem: (renderer) =>
      typeof renderer?.kind !== "string" || typeof renderer.render !== "function"
        ? `a message renderer needs a \`kind\` and a \`render\` function (got ${JSON.stringify(renderer?.kind)})`
        : undefined,
    alias: aliasFor.other,
  },
  keybindings: {
    nameOf: (binding) => binding.key,
    problem: (binding) =>
      typeof binding?.key !== "string" || typeof binding.command !== "string" || !binding.command.startsWith("/")
        ? `a keybinding needs a \`key\` and a \`command\` line starting with / (got ${JSON.stringify(binding?.key)})`
        : undefined,
    alias: aliasFor.other,
  },
};

export function createContributions(
  prefer: () => Partial<Record<string, Record<string, string>>>,
  warn: (message: string, owner: Owner) => void,
): Contributions {
  const registries = CONTRIBUTION_KINDS.map((kind) => {
    const admission = ADMISSIONS[kind] as Admission<unknown>;
    return [
      kind,
      new Registry({ noun: CONTRIBUTIONS[kind].noun, key: kind }, admission.alias, () => prefer()[kind] ?? {}, warn),
    ] as const;
  });
  return Object.fromEntries(registries) as unknown as Contributions;
}
