/** What the host knows of one discovered plugin, from its manifest to its activation. */
import {
  ContributesSchema,
  type KeelManifest,
  type PluginDefinition,
  type PluginInfo,
  type PluginRef,
  type PluginSource,
} from "@keel/extensions-api";
import { declaredNames, withContent } from "@keel/plugin-lock";
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
  /** What woke the plugin (PluginInfo.activatedBy), and how long its activate() took. */
  activatedBy?: string;
  activationMs?: number;
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

/** The manifest of a plugin given as an object: what it says, over a manifest that declares nothing. */
export function inlineManifest(p: InlineCandidate): KeelManifest {
  return {
    apiVersion: "^1.0.0",
    entry: "(inline)",
    contributes: ContributesSchema.parse({}),
    dependsOn: {},
    capabilities: [],
    reads: [],
    providers: [],
    providerApis: [],
    ...p.manifest,
  } as KeelManifest;
}

/** What `keel plugins` and `runtime.listPlugins()` show of a record. */
export function pluginInfo(r: PluginRecord, confined: boolean): PluginInfo {
  return {
    name: r.name,
    version: r.version,
    source: r.source,
    dir: r.dir,
    state: r.state,
    reason: r.reason,
    contributes: declaredNames(r.manifest),
    ...(r.activatedBy && { activatedBy: r.activatedBy, activationMs: r.activationMs }),
    confined,
    ...withContent(r.dir, r.manifest),
  };
}
