/** What the host knows of one discovered plugin, from its manifest to its activation. */
import type { KeelManifest, PluginDefinition, PluginInfo, PluginRef, PluginSource } from "@keel/extensions-api";
import type { PluginScope } from "./plugin-api.js";

export interface PluginRecord extends PluginRef {
  dir: string;
  source: PluginSource;
  order: number;
  manifest?: KeelManifest;
  settingsKey: string;
  events: string[];
  state: PluginInfo["state"];
  reason?: string;
  failures: number;
  inline?: PluginDefinition<any>;
  scope?: PluginScope;
  pending?: Promise<boolean>;
  /** Removers of the manifest-declared tools offered while the plugin is not loaded. */
  offered?: (() => void)[];
}

/** A plugin given as an object (the test kit), activated like a loaded one. */
export interface InlineCandidate {
  name: string;
  version: string;
  definition: PluginDefinition<any>;
  manifest?: Partial<KeelManifest>;
}
