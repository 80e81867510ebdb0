/**
 * The settings a runtime runs on, composed from its layers: defaults (the distribution's), user, the project
 * (whole once trusted, only its allowed keys before), `--settings`, the distribution's locks put back over
 * them, and the managed layer above all. Before the project's trust is decided, they leave the project out.
 */
import type { InstallPolicy } from "@keel/extensions-api";
import type { ProjectTrust } from "../trust/decide.js";
import type { PluginPolicy } from "../host/plugin-policy.js";
import { parseCoreSettings, type CoreSettings } from "../settings/core-settings.js";
import { applyLocks, lockWarnings } from "../settings/locked.js";
import { managedPolicy, overlayManaged, requiredPlugins, type ManagedPolicy } from "../settings/managed.js";
import { mergeSettings, namedLayers, type SettingLayers, type SettingsObject } from "../settings/layers.js";

/** The settings in effect at one moment. */
interface View {
  settings: SettingsObject;
  core: CoreSettings;
  /** The project's settings while it is untrusted (plugins see their section as `untrustedSettings`). */
  untrusted?: SettingsObject;
}

/** What the plugins' manifests say about settings paths (manifest-keys.ts), once they are read. */
export interface ManifestKeys {
  addingLists(): readonly string[];
  lockedWith(locked: readonly string[]): string[];
}

export class SettingsView {
  private view: View;
  private readonly managed: ManagedPolicy;
  private trusted = false;

  /**
   * `locked` are the distribution's locked keys (`command` names it in warnings); `manifests` give the settings
   * paths whose lists every layer adds to and the keys a lock also locks (known once the plugins' manifests are
   * read). Problems go to `warnings`.
   */
  constructor(
    readonly layers: SettingLayers,
    private readonly locked: string[],
    private readonly command: string,
    private readonly warnings: string[],
    private readonly manifests: ManifestKeys,
  ) {
    const [, ...below] = namedLayers(layers);
    warnings.push(...lockWarnings(below.slice(0, -1), locked, command));
    // Until the project's trust is decided, the settings leave the project out (its problems are reported then).
    const early = this.compose(undefined);
    this.view = { settings: early, core: parseCoreSettings(early, []) };
    const belowManaged = [layers.defaults, layers.user, ...layers.extra];
    this.managed = managedPolicy(layers.managed, layers.managedFile, belowManaged, warnings);
  }

  /** The merged settings in effect. */
  get settings(): SettingsObject {
    return this.view.settings;
  }

  /** The kernel's own keys of the settings in effect. */
  get core(): CoreSettings {
    return this.view.core;
  }

  /** A section as an untrusted project wrote it; undefined when the project is trusted (or not yet decided). */
  untrusted(key: string): unknown {
    return this.view.untrusted?.[key];
  }

  /** Settles the settings once the project's trust is known; its problems are reported now. */
  settle(trust: ProjectTrust): void {
    const [, ...below] = namedLayers(this.layers);
    this.warnings.push(...lockWarnings(below.slice(0, -1), this.manifests.lockedWith(this.locked), this.command));
    this.trusted = trust.trusted;
    const settings = this.compose(trust.trusted ? this.layers.project : trust.allowed);
    this.view = {
      settings,
      core: parseCoreSettings(settings, this.warnings),
      untrusted: trust.trusted ? undefined : this.layers.project,
    };
  }

  /** Which plugins may load, by the settings in effect and the managed layer. */
  pluginPolicy(): PluginPolicy {
    const { blocked, allowed } = this.managed.plugins;
    return {
      disabled: this.core.plugins.disabled,
      blocked,
      allowed,
      managedFile: this.layers.managedFile,
      projectTrusted: this.trusted,
    };
  }

  /** The plugins every layer that applies requires (the project's only when trusted). */
  requiredPlugins(): string[] {
    const { defaults, user, project, extra, managed } = this.layers;
    return requiredPlugins([defaults, user, this.trusted ? project : undefined, ...extra, managed]);
  }

  /** What the managed layer lets be installed, and what every layer requires (for the plugin installer). */
  get installPolicy(): InstallPolicy {
    const { allowed, blocked, allowedCatalogs, blockedCatalogs } = this.managed.plugins;
    const managedFile = this.layers.managedFile;
    return { managedFile, required: this.requiredPlugins(), allowed, blocked, allowedCatalogs, blockedCatalogs };
  }

  /** The distribution's locked keys (dotted). */
  get lockedKeys(): readonly string[] {
    return [...this.locked, ...this.manifests.lockedWith(this.locked)];
  }

  /** Whether the managed layer fixes the operations backend (nothing below undoes it). */
  get managedOps(): boolean {
    return typeof this.layers.managed?.ops === "string";
  }

  /** The layers that apply, merged: the project's whole file, only its allowed keys, or none of it yet. */
  private compose(project: SettingsObject | undefined): SettingsObject {
    const { defaults, user, extra, managed } = this.layers;
    const merged = mergeSettings([defaults, user, project, ...extra], new Set(this.manifests.addingLists()));
    return overlayManaged(applyLocks(merged, defaults, [...this.lockedKeys]), managed);
  }
}
