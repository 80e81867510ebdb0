/**
 * The plugin host: discover → read manifest → check apiVersion → order by dependsOn → load (jiti) → validate
 * settings → activate (with a deadline) → dispose in reverse. A plugin that fails at any step is skipped with a
 * message naming it and saying why; the others, and the agent, carry on. Plugins whose manifest says they are only
 * needed for a command, mode, provider or backend stay unloaded until used. Activating one plugin is
 * activate-plugin.ts; which events wake which plugins, activation-events.ts; which may load, plugin-policy.ts.
 */
import { join, sep } from "node:path";
import {
  API_VERSION,
  type CliCommandDeclaration,
  type ContributionKind,
  settingsKeyOf,
  type PluginInfo,
  type PluginRef,
  type Runtime,
} from "@keel/extensions-api";
import type { EventBus, HookBus } from "@keel/kernel";
import type { NamedLayer } from "../settings/layers.js";
import type { Contributions } from "./registries.js";
import type { Candidate } from "./discover.js";
import { apiFits } from "@keel/plugin-lock";
import { ManifestCache } from "./manifest-cache.js";
import { orderPlugins } from "./order.js";
import { keelCacheDir } from "../cache-dir.js";
import type { PluginEntries } from "./plugin-entries.js";
import { activatePlugin, DEGRADED_AFTER, type ActivationContext } from "./activate-plugin.js";
import { activationEvents, firesFor, offerDeclaredTools, waitsFor } from "./activation-events.js";
import { listsCliCommand, waitingCliCommands } from "./declared-cli-commands.js";
import { decidesTrust, policyBars, type PluginPolicy } from "./plugin-policy.js";
import { addingLists, lockedWith } from "./manifest-keys.js";
import { inlineManifest, pluginInfo, type InlineCandidate, type PluginRecord } from "./plugin-record.js";

export interface HostDeps {
  bus: EventBus;
  hooks: HookBus;
  contributions: Contributions;
  cwd: string;
  keelHome: string;
  /** The merged settings a plugin activated now sees (the project's part depends on its trust, decided early). */
  settings(): Readonly<Record<string, unknown>>;
  /** A section as an untrusted project wrote it; undefined when the project is trusted. */
  untrustedSettings(key: string): unknown;
  /** Whether the project folder's own configuration applies (see `PluginAPI.projectTrusted`). */
  projectTrusted(): boolean;
  /** Every settings layer as written, named, to report keys in a plugin's section that its schema lacks. */
  settingLayers(): NamedLayer[];
  activationTimeoutMs(): number;
  /** The plugin entries of the active branch (`api.session`). */
  session: PluginEntries;
  runtime(): Runtime | undefined;
  /** Whether this plugin runs confined, in its own host process (confine/policy.ts); absent: none is. */
  confinement?(r: PluginRecord): import("../confine/policy.js").ConfinementDecision;
  /** Whether it runs only confined, by the settings (no probe of the machine): what listings show. */
  confined?(r: PluginRecord): boolean;
}

export class PluginHost {
  private readonly records: PluginRecord[] = [];
  private readonly activated: PluginRecord[] = [];
  private readonly activation: ActivationContext;

  constructor(private readonly deps: HostDeps) {
    deps.bus.on("plugin_error", ({ plugin }) => this.countFailure(plugin.name));
    this.activation = {
      deps,
      find: (name) => this.records.find((r) => r.name === name),
      activate: (r, by) => this.activate(r, by),
      activateFor: (kind, name) => this.activateFor(kind, name),
      fail: (r, phase, reason) => this.fail(r, phase, reason),
      activated: (r) => this.activated.push(r),
    };
  }

  /** Reads every candidate's manifest and decides what can be activated. Runs no plugin code. */
  register(candidates: Candidate[], inline: InlineCandidate[] = []): void {
    const manifests = new ManifestCache(join(keelCacheDir(), "manifests"));
    for (const candidate of candidates) {
      if (candidate.refused) {
        const { name, version, reason } = candidate.refused;
        this.add({
          name,
          version,
          dir: candidate.dir,
          source: candidate.source,
          settingsKey: "",
          events: [],
          state: "lazy",
        });
        this.fail(this.records.at(-1)!, "verify", reason);
        continue;
      }
      const read = manifests.read(candidate.dir);
      if (!read.ok) {
        this.add({
          name: read.name,
          version: "?",
          dir: candidate.dir,
          source: candidate.source,
          settingsKey: "",
          events: [],
          state: "failed",
          reason: read.error,
        });
        continue;
      }
      const { pkg } = read;
      if (this.records.some((r) => r.name === pkg.name)) {
        this.deps.bus.emit("plugin_warning", {
          plugin: { name: pkg.name, version: pkg.version },
          message: `is installed twice; ${candidate.dir} was ignored (the copy loaded first wins).`,
        });
        continue;
      }
      this.add({
        name: pkg.name,
        version: pkg.version,
        dir: candidate.dir,
        source: candidate.source,
        manifest: pkg.keel,
        settingsKey: settingsKeyOf(pkg),
        events: activationEvents(pkg.keel),
        state: "lazy",
      });
    }
    for (const p of inline) {
      const manifest = inlineManifest(p);
      this.add({
        name: p.name,
        version: p.version,
        dir: "(inline)",
        source: "cli",
        manifest,
        settingsKey: settingsKeyOf({ name: p.name, keel: manifest }),
        events: manifest.activation ?? ["onStartup"],
        state: "lazy",
        inline: p.definition,
      });
    }
    manifests.save();
    this.checkCompatibility();
  }

  private add(record: Omit<PluginRecord, "order" | "failures">): void {
    const full: PluginRecord = { ...record, order: this.records.length, failures: 0 };
    this.records.push(full);
    if (full.state === "failed") this.report(full, "manifest", full.reason!);
  }

  /** apiVersion and dependsOn, before anything runs; neither depends on settings. */
  private checkCompatibility(): void {
    for (const r of this.records) {
      if (r.state !== "lazy") continue;
      const range = r.manifest!.apiVersion;
      const fit = apiFits(range);
      if (fit === "invalid")
        this.fail(r, "manifest", `its keel.apiVersion "${range}" is not a semver range (e.g. "^1.0.0")`);
      else if (fit === "no")
        this.fail(
          r,
          "manifest",
          `it needs @keel/extensions-api ${range}, but this keel provides ${API_VERSION}; update the plugin or keel`,
        );
    }
    const live = this.records.filter((r) => r.state === "lazy");
    const failedNames = new Set(this.records.filter((r) => r.state === "failed").map((r) => r.name));
    const { failed } = orderPlugins(
      live.map((r) => ({ name: r.name, version: r.version, dependsOn: r.manifest!.dependsOn })),
      failedNames,
    );
    const byName = (name: string) => this.records.find((r) => r.name === name)!;
    for (const [name, why] of failed) this.fail(byName(name), "dependencies", why);
  }

  /**
   * Activates the plugins that tap `project_trust`, before the project's settings are known: they see only the
   * other layers. A plugin the project could disable must not decide whether the project is trusted.
   */
  async activateTrustDeciders(policy: PluginPolicy): Promise<void> {
    for (const r of this.records) {
      if (decidesTrust(r, policy)) await this.activate(r, "project_trust");
    }
  }

  /**
   * Marks the plugins `policy` keeps from loading as disabled (the final settings are known now), then offers
   * the declared tools of the lazy plugins left.
   */
  applyPolicy(policy: PluginPolicy): void {
    for (const r of this.records) {
      const bars = r.state === "lazy" ? policyBars(r, policy) : undefined;
      if (bars) {
        r.state = "disabled";
        r.reason = bars;
      }
    }
    offerDeclaredTools(this.records, this.deps.contributions, (r) => this.activate(r, "declared tool"));
  }

  /** Whether some plugin's manifest contributes this subcommand. */
  declaresCliCommand(name: string): boolean {
    return listsCliCommand(this.records, name);
  }

  /** The subcommands lazy plugins declare in full and wait to contribute, for `--help` before they load. */
  waitingCliCommands(): CliCommandDeclaration[] {
    return waitingCliCommands(this.records, (r, name) => waitsFor(r, "cliCommands", name));
  }

  /** Activates these plugins now, whatever their activation events (required plugins start with the host). */
  async activateNow(names: readonly string[]): Promise<void> {
    for (const r of this.records) if (names.includes(r.name)) await this.activate(r, "required");
  }

  /** The record of one plugin, for the required-plugins check. */
  find(name: string): Readonly<PluginRecord> | undefined {
    return this.records.find((r) => r.name === name);
  }

  list(): PluginInfo[] {
    return this.records.map((r) => pluginInfo(r, !r.inline && (this.deps.confined?.(r) ?? false)));
  }

  /** The plugin whose folder holds `file` (the innermost, if folders nest), for blaming a stack frame. */
  ownerOfFile(file: string): PluginRef | undefined {
    let best: PluginRecord | undefined;
    for (const r of this.records) {
      if (r.inline || !file.startsWith(r.dir + sep)) continue;
      if (!best || r.dir.length > best.dir.length) best = r;
    }
    return best && { name: best.name, version: best.version };
  }

  /** Activates every plugin that starts with the host, in dependency order. */
  async activateStartup(): Promise<void> {
    for (const r of this.records)
      if (r.state === "lazy" && r.events.includes("onStartup")) await this.activate(r, "onStartup");
  }

  /**
   * Fires the activation event of `kind`'s contribution `name` (`onCommand:/compact`): activates the lazy
   * plugins waiting for it; `*` matches every plugin waiting for any of that kind. Resolves once they are
   * active (or failed).
   */
  async activateFor(kind: ContributionKind, name: string): Promise<void> {
    for (const r of this.records) if (firesFor(r, kind, name)) await this.activate(r, `${kind}:${name}`);
  }

  /**
   * Activates the lazy plugins whose manifest names provider APIs they serve (`keel.providerApis`): they
   * register the providers the user's settings define, whose ids no manifest lists.
   */
  async activateProviderApiServers(): Promise<void> {
    for (const r of this.records)
      if (r.state === "lazy" && (r.manifest?.providerApis.length ?? 0) > 0) await this.activate(r, "providerApis");
  }

  /** Whether some lazy plugin waits for `kind`'s contribution `name`. */
  waitsFor(kind: ContributionKind, name: string): boolean {
    return this.records.some((r) => waitsFor(r, kind, name));
  }

  private async activate(r: PluginRecord, by: string): Promise<boolean> {
    if (r.state === "active" || r.state === "degraded") return true;
    if (r.state !== "lazy") return false;
    if (r.pending) return r.pending;
    r.activatedBy = by;
    r.pending = activatePlugin(r, this.activation).finally(() => (r.pending = undefined));
    return r.pending;
  }

  /** The settings paths whose lists every layer adds to (`keel.addingLists`, manifest-keys.ts). */
  addingLists(): string[] {
    return addingLists(this.records);
  }

  /** The keys a distribution's lock on `locked` also locks (`keel.locksWith`, manifest-keys.ts). */
  lockedWith(locked: readonly string[]): string[] {
    return lockedWith(this.records, locked);
  }

  /** The settings sections discovered plugins own or read, loaded or not: what top-level keys may be. */
  knownSettingsKeys(): string[] {
    return this.records.flatMap((r) => [r.settingsKey, ...(r.manifest?.reads ?? [])]).filter((key) => key.length > 0);
  }

  private fail(r: PluginRecord, phase: string, reason: string): false {
    r.state = "failed";
    r.reason = reason;
    this.report(r, phase, reason);
    return false;
  }

  private report(r: PluginRecord, phase: string, reason: string): void {
    this.deps.bus.emit("plugin_error", {
      plugin: { name: r.name, version: r.version },
      phase,
      message: `skipped: ${reason}`,
    });
  }

  private countFailure(name: string): void {
    const r = this.records.find((x) => x.name === name);
    if (!r || r.state === "failed") return;
    r.failures++;
    if (r.state === "active" && r.failures >= DEGRADED_AFTER) {
      r.state = "degraded";
      r.reason = `${r.failures} failures in its hooks or event handlers`;
      this.deps.bus.emit("plugin_warning", {
        plugin: { name: r.name, version: r.version },
        message: `is degraded: ${r.reason}. See the plugin_error messages above.`,
      });
    }
  }

  /** Disposes active plugins in reverse activation order. */
  async disposeAll(): Promise<void> {
    for (const r of this.activated.splice(0).reverse()) {
      const errors = (await r.scope?.dispose()) ?? [];
      for (const message of errors)
        this.deps.bus.emit("plugin_error", { plugin: { name: r.name, version: r.version }, phase: "dispose", message });
    }
  }
}
