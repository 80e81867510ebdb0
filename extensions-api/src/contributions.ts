/**
 * Contribution kinds: the named things a plugin registers (tools, commands, providers, …). `CONTRIBUTIONS` is
 * the one catalog: the manifest's `keel.contributes`, activation events, `prefer` keys in settings, the host's
 * registries, the declared-vs-registered warnings, `keel plugins` and `docs/contributions.md` all derive from it.
 *
 * Adding a kind takes one row here, its item type in `ContributionTypes`, its `register*` method on
 * `PluginAPI`, and its admission rule in the host (`core/src/host/registries.ts`); the compiler refuses a row
 * without the others.
 */
import { z } from "zod";
import type { OperationsBackend } from "./ops.js";
import type { CliCommandSpec, FlagSpec } from "./cli.js";
import type { Mode, PluginAPI, SlashCommand } from "./plugin.js";
import type { Provider } from "./provider.js";
import type { SessionStore } from "./session-store.js";
import type { Tool } from "./tool.js";
import type { Keybinding, MessageRenderer, StatusEntry, Widget } from "./ui.js";

/** The catalog as types: kind (the key in `keel.contributes` and in `prefer`) → what a plugin registers. */
export interface ContributionTypes {
  tools: Tool;
  commands: SlashCommand;
  providers: Provider;
  modes: Mode;
  flags: FlagSpec;
  cliCommands: CliCommandSpec;
  ops: OperationsBackend;
  sessionStores: SessionStore;
  statusEntries: StatusEntry;
  widgets: Widget;
  messageRenderers: MessageRenderer;
  keybindings: Keybinding;
}

export type ContributionKind = keyof ContributionTypes;

/** Names the model may call: what every provider accepts. */
export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A family of tools whose names are known only at run time (`mcp__*`: an MCP server's), declared in
 * `keel.contributes.tools` by its prefix and a `*` (commands likewise: `/mcp:*`). It makes the plugin start
 * with the host, and its contributions of that prefix are not reported as missing from the manifest.
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,63}\*$/;

/** Whether `name` is one of a manifest's entries, by name or by a `prefix*` pattern. */
export function declaresName(entries: readonly string[], name: string): boolean {
  return entries.some((entry) => (entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : entry === name));
}

/**
 * A tool declared in full in the manifest, so the model sees it before the plugin is loaded: the plugin is
 * activated by the first call (`onTool:<name>`), and its registered tool of that name runs the call.
 */
export const ToolDeclarationSchema = z
  .object({
    name: z.string().regex(TOOL_NAME, "a tool name is 1-64 letters, digits, _ or -"),
    label: z.string().optional(),
    description: z.string().min(1),
    /** JSON Schema of the input: an object schema, as the model will see it. */
    parameters: z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
      if (schema.type !== "object")
        ctx.addIssue({ code: "custom", message: 'parameters must be a JSON Schema with "type": "object"' });
      try {
        z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
      } catch (error) {
        ctx.addIssue({
          code: "custom",
          message: `parameters is not a JSON Schema keel can read (${(error as Error).message})`,
        });
      }
    }),
    readOnly: z.boolean().optional(),
  })
  .strict();

export type ToolDeclarationManifest = z.output<typeof ToolDeclarationSchema>;

const plainName = z.string().min(1);

/**
 * A CLI command declared in full in the manifest, so `keel --help` lists it (with what it does and takes)
 * while its plugin is not loaded; `keel <name>` activates the plugin, whose registered command then runs.
 */
export const CliCommandDeclarationSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]*$/, "a CLI command is a lowercase word: letters, digits and -"),
    description: z.string().min(1),
    /** e.g. `[query]` or `<tasks.jsonl>`, as the registered command's `arguments`. */
    arguments: z.string().min(1).optional(),
  })
  .strict();

export type CliCommandDeclaration = z.output<typeof CliCommandDeclarationSchema>;

/** One row of the catalog, for a kind whose items are `Item`. */
export interface ContributionSpec<Item = unknown> {
  /** One item, as messages name it: `tool`, `CLI command`. */
  noun: string;
  /** The `PluginAPI` method that registers one. */
  register: RegisterMethodOf<Item>;
  /** The activation event's prefix: `onTool` makes `onTool:<name>`. */
  event: `on${string}`;
  /**
   * Whether a plugin contributing this kind may stay unloaded until one is used (its event fires then).
   * `false`: the host must know it before anything runs, so such a plugin starts with the host.
   */
  lazy: boolean;
  /** What fires the event (lazy kinds) or why the kind cannot be lazy; for the docs and errors. */
  when: string;
  /** Schema of one entry in `keel.contributes.<kind>`. */
  entry: z.ZodType<string | { name: string }>;
  /** How `keel plugins` shows a name: prefix before it (`tool:read`, `--continue`, `/compact`). */
  show: string;
  doc: string;
}

/** The `PluginAPI` methods whose one argument is `T`. */
export type RegisterMethodOf<T> = {
  [M in keyof PluginAPI]: PluginAPI[M] extends (item: T) => void ? (M extends `register${string}` ? M : never) : never;
}[keyof PluginAPI];

/** What `CONTRIBUTIONS` must be: one row per kind of `T`, each naming a register method for its item. */
export type ContributionTable<T extends object = ContributionTypes> = { [K in keyof T]: ContributionSpec<T[K]> };

/** The catalog of contribution kinds; `docs/contributions.md` is generated from it. */
export const CONTRIBUTIONS = {
  tools: {
    noun: "tool",
    register: "registerTool",
    event: "onTool",
    lazy: true,
    when:
      "the model first calls it; the tool must be declared in full in the manifest (name, " +
      "description, parameters) so the model sees it before the plugin loads",
    entry: z.union([
      z
        .string()
        .refine(
          (name) => TOOL_NAME.test(name) || TOOL_NAME_PATTERN.test(name),
          "a tool name is 1-64 letters, digits, _ or -, or a prefix of them and * (mcp__*) for tools named at run time",
        ),
      ToolDeclarationSchema,
    ]),
    show: "tool:",
    doc: "What the model can call.",
  },
  commands: {
    noun: "command",
    register: "registerCommand",
    event: "onCommand",
    lazy: true,
    when: "the user runs it (`/name args`)",
    entry: z
      .string()
      .regex(
        /^\/([\w:-]+|[\w:-]*\*)$/,
        "a command starts with / followed by letters, digits, _ - :, or is such a prefix and * (/mcp:*) " +
          "for commands named at run time",
      ),
    show: "",
    doc: "Slash commands, with their leading `/`.",
  },
  providers: {
    noun: "provider",
    register: "registerProvider",
    event: "onProvider",
    lazy: true,
    when: "a model of it is resolved (`--provider`, settings, `keel models`)",
    entry: plainName,
    show: "provider:",
    doc: "Model APIs, by the id users pass to `--provider`.",
  },
  modes: {
    noun: "mode",
    register: "registerMode",
    event: "onMode",
    lazy: true,
    when: "it is chosen to run the session (`--mode`, `-p` for `text`, plain `keel` for `interactive`)",
    entry: plainName,
    show: "mode:",
    doc: "UIs of a session.",
  },
  flags: {
    noun: "flag",
    register: "registerFlag",
    event: "onFlag",
    lazy: false,
    when: "needed before anything runs: the command line is parsed first, so every flag must be registered by then",
    entry: plainName,
    show: "--",
    doc: "Command-line flags of the main command, without dashes.",
  },
  cliCommands: {
    noun: "CLI command",
    register: "registerCliCommand",
    event: "onCliCommand",
    lazy: true,
    when: "the command line names it (`keel <name>`)",
    entry: z.union([plainName, CliCommandDeclarationSchema]),
    show: "cli:",
    doc:
      "Subcommands (`keel <name>`), run instead of the agent. Declared in full (`{ name, description, arguments }`), " +
      "`keel --help` lists one before its plugin loads.",
  },
  ops: {
    noun: "operations backend",
    register: "registerOps",
    event: "onOps",
    lazy: true,
    when: "the session needs a backend and the `ops` setting names it (or names none)",
    entry: plainName,
    show: "ops:",
    doc: "Operations backends: the machine tools run on.",
  },
  sessionStores: {
    noun: "session store",
    register: "registerSessionStore",
    event: "onSessionStore",
    lazy: false,
    when: "needed when the session starts: the store begins or resumes it in `session_start`",
    entry: plainName,
    show: "sessions:",
    doc: "Session stores: where sessions are kept, as surfaces list, switch, fork and walk them.",
  },
  statusEntries: {
    noun: "status entry",
    register: "registerStatusEntry",
    event: "onStatusEntry",
    lazy: false,
    when: "read by the UI from its first screen, so a plugin that shows one starts with the host",
    entry: plainName,
    show: "status:",
    doc: "Entries of the status line (the terminal UI's footer; the line chat prints them after a run).",
  },
  widgets: {
    noun: "widget",
    register: "registerWidget",
    event: "onWidget",
    lazy: false,
    when: "read by the UI from its first screen, so a plugin that shows one starts with the host",
    entry: plainName,
    show: "widget:",
    doc: "Lines above the editor (the terminal UI) or after a run (the line chat).",
  },
  messageRenderers: {
    noun: "message renderer",
    register: "registerMessageRenderer",
    event: "onMessageRenderer",
    lazy: false,
    when: "needed when a resumed session is first drawn, so a plugin that renders its entries starts with the host",
    entry: plainName,
    show: "renders:",
    doc: "How the plugin's own session entries of a kind appear in the conversation, by entry kind.",
  },
  keybindings: {
    noun: "keybinding",
    register: "registerKeybinding",
    event: "onKeybinding",
    lazy: false,
    when: "bound when the terminal UI starts, so a plugin that binds a key starts with the host",
    entry: plainName,
    show: "key:",
    doc: "Keys of the terminal UI that run a slash command line, by key (`ctrl+t`).",
  },
} as const satisfies ContributionTable;

/** Compile-time check that `CONTRIBUTIONS` has a row for every kind of `ContributionTypes`. */
type MissingKinds = Exclude<ContributionKind, keyof typeof CONTRIBUTIONS>;
const _allKindsListed: MissingKinds extends never ? true : never = true;
void _allKindsListed;

/** The kinds in catalog order. */
export const CONTRIBUTION_KINDS = Object.keys(CONTRIBUTIONS) as ContributionKind[];

/** One entry of `keel.contributes.<kind>` as the manifest gives it. */
export type ContributionEntry<K extends ContributionKind> = z.output<(typeof CONTRIBUTIONS)[K]["entry"]>;

/** The names a plugin declares, per kind, plus the hooks it taps: what `keel plugins` lists. */
export type DeclaredContributions = { [K in ContributionKind]: string[] } & { hooks: string[] };

/** The name of a manifest entry (a tool may be declared in full, the others by name). */
export function contributionName(entry: string | { name: string }): string {
  return typeof entry === "string" ? entry : entry.name;
}
