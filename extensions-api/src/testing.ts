/**
 * The plugin test kit: runs plugins inside a real keel kernel, with a scripted model, in a temp workspace,
 * and records what happened. keel's own plugin tests use it.
 *
 * ```ts
 * const kit = await createTestKit({ plugins: [pluginDir], script: [{ toolCalls: [{ name: "notify" }] }, { text: "done" }] });
 * await kit.run("go");
 * expect(kit.eventNames()).toContain("tool_execution_end");
 * await kit.dispose();
 * ```
 *
 * The kernel itself lives in `@keel/core`, which this module imports on first use (install `@keel/core` or
 * the `keel` package as a dev dependency).
 */
import type { EventName, EventPayloads } from "./events.js";
import type { KeelManifest } from "./manifest.js";
import type { ToolResultMessage } from "./messages.js";
import type { PluginDefinition, PluginInfo, RunResult, Runtime } from "./plugin.js";
import type { ScriptTurn } from "./scripted.js";

export interface InlinePlugin {
  name: string;
  version?: string;
  plugin: PluginDefinition<any>;
  manifest?: Partial<Pick<KeelManifest, "activation" | "settingsKey" | "dependsOn">>;
}

export interface TestKitOptions {
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
}

export interface RecordedEvent<K extends EventName = EventName> {
  name: K;
  payload: EventPayloads[K];
}

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
  toolResults(): ToolResultMessage[];
  plugins(): PluginInfo[];
  /** `plugin_error` and `plugin_warning` texts, prefixed with the plugin name. */
  problems(): string[];
  /** Removes the temp folders and disposes every plugin. */
  dispose(): Promise<void>;
}

/** Starts a kernel with the given plugins and a scripted model. */
export async function createTestKit(options: TestKitOptions): Promise<TestKit> {
  let core: { createTestKit(options: TestKitOptions): Promise<TestKit> };
  try {
    core = (await import("@keel/core" as string)) as typeof core;
  } catch (error) {
    throw new Error(`The keel test kit needs @keel/core: install it as a dev dependency (${(error as Error).message})`);
  }
  return core.createTestKit(options);
}
