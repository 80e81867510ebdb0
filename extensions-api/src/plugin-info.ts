/** What a plugin is as the host lists it: where it came from, its state, what it declares and what it ships. */
import type { DeclaredContributions } from "./contributions.js";
import type { PluginRef } from "./events.js";
import type { PluginContent } from "./manifest.js";

/** Where a plugin came from; `project` is the workspace's `.keel/plugins`, loaded only once the folder is trusted. */
export type PluginSource = "distribution" | "user" | "cli" | "project";
export type PluginState = "active" | "lazy" | "failed" | "degraded" | "disabled";

/** One plugin as `keel plugins` shows it. */
export interface PluginInfo extends PluginRef {
  source: PluginSource;
  dir: string;
  state: PluginState;
  /** Why it failed or is disabled. */
  reason?: string;
  /** What its manifest declares, by name, per kind of `CONTRIBUTIONS`. */
  contributes: DeclaredContributions;
  /**
   * The content its manifest lists for keel's own plugins to read (`keel.skills`, `keel.prompts`,
   * `keel.content`), with every path made absolute; absent when it lists none (most plugins).
   */
  content?: PluginContentPaths;
  /**
   * What woke it, once it started to activate: `onStartup`, the contribution asked for (`commands:/compact`,
   * `modes:tui`), `project_trust`, `required`, `providerApis`, `declared tool` or `dependsOn of <plugin>`.
   */
  activatedBy?: string;
  /** Milliseconds its `activate()` took, once it finished. */
  activationMs?: number;
  /**
   * Whether it runs confined to its declared capabilities, in a host process of its own (`plugins.confine`);
   * false: it runs in keel's process with the user's rights.
   */
  confined?: boolean;
}

/** A manifest's content with its paths absolute: what `PluginInfo.content` holds. */
export interface PluginContentPaths extends PluginContent {
  skills: string[];
  prompts: string[];
}
