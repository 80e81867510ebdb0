/**
 * The test kit's types: what a test gives `createTestKit` and what it gets back.
 */
import type {
  EventName,
  EventPayloads,
  KeelManifest,
  ModeOptions,
  PluginDefinition,
  PluginInfo,
  RunResult,
  Runtime,
  ToolResultMessage,
} from "@keel/extensions-api";
import type { ScriptTurn } from "@keel/extensions-api/scripted";

/** A plugin given as an object instead of a folder (a test's own probe or fake). */
export interface InlinePlugin {
  name: string;
  version?: string;
  plugin: PluginDefinition<any>;
  manifest?: Partial<Pick<KeelManifest, "activation" | "settingsKey" | "dependsOn" | "reads">>;
}

/** What the kit starts: plugins, the scripted model's turns, the workspace's files, settings and flags. */
export interface TestKitOptions {
  /**
   * A distribution to run as: a built one's package.json, or a distribution manifest whose plugins are local
   * (`keel`, `path:` sources). Its plugins load first, its settings are the defaults, its locks hold.
   */
  distribution?: string;
  /** Plugin folders (package.json with a `keel` manifest), loaded through the real host, in order. */
  plugins?: string[];
  /** Plugins given as objects, activated after the folders. */
  inline?: InlinePlugin[];
  /** Turns the scripted model plays. */
  script?: ScriptTurn[];
  /** Files to create in the temp workspace: relative path → content. */
  files?: Record<string, string>;
  /** Merged settings (the user file's content). */
  settings?: Record<string, unknown>;
  /** Flags of the main command, by name. */
  flags?: Record<string, unknown>;
  /** Use this folder as the workspace instead of a new temp one. */
  cwd?: string;
  /** Use this folder as KEEL_HOME (sessions, user settings, data) instead of a new temp one, e.g. to resume. */
  keelHome?: string;
  /**
   * Whether the workspace's own configuration (`.keel/settings.json`, `.keel/plugins`, written with `files`)
   * is trusted, as with `--trust`. Default `false`: it is handled as an untrusted folder's (only the harmless
   * keys apply, each plugin sees its section as `api.untrustedSettings`, project plugins stay disabled).
   */
  trust?: boolean;
}

/** One event the runtime emitted, as the kit recorded it. */
export interface RecordedEvent<K extends EventName = EventName> {
  name: K;
  payload: EventPayloads[K];
}

/** A running kit: the runtime, what it recorded, and queries over it. */
export interface TestKit {
  readonly cwd: string;
  readonly keelHome: string;
  readonly runtime: Runtime;
  /** Every event, in order. */
  readonly events: RecordedEvent[];
  eventNames(): EventName[];
  /** Events of one kind; `eventsOf("guard_blocked")` lists the guards' decisions to block. */
  eventsOf<K extends EventName>(name: K): EventPayloads[K][];
  run(prompt: string): Promise<RunResult>;
  /** Runs a mode a plugin registered (activating its plugin), as `keel --mode <name>` would; its exit code. */
  runMode(name: string, options?: ModeOptions): Promise<number>;
  toolResults(): ToolResultMessage[];
  plugins(): PluginInfo[];
  /** Settings problems found while the runtime loaded (a locked key set by a lower layer, a typo). */
  readonly warnings: readonly string[];
  /** `plugin_error` and `plugin_warning` texts, prefixed with the plugin name. */
  problems(): string[];
  /** Removes the temp folders and disposes every plugin. */
  dispose(): Promise<void>;
}
