/**
 * The plugin host: discover → read manifest → check apiVersion → order by dependsOn → load (jiti) →
 * validate settings → activate (with a deadline) → dispose in reverse. A plugin that fails at any step is
 * skipped with a message naming it and saying why; the others, and the agent, carry on. Plugins whose
 * manifest says they are only needed for a command, mode, provider or backend stay unloaded until used.
 */
import { join, sep } from "node:path";
import {
  API_VERSION,
  CONTRIBUTION_KINDS,
  CONTRIBUTIONS,
  declaresName,
  ContributesSchema,
  type ContributionKind,
  settingsKeyOf,
  type Tool,
  type KeelManifest,
  type PluginDefinition,
  type PluginInfo,
  type PluginRef,
  type PluginSource,
  type Runtime,
  type z,
} from "@keel/extensions-api";
import type { EventBus } from "../bus/event-bus.js";
import { errorText } from "../bus/event-bus.js";
import type { HookBus } from "../hooks/hook-bus.js";
import { runWithDeadline } from "../hooks/timeout.js";
import type { NamedLayer } from "../settings/settings.js";
import { sectionKeyWarnings } from "../settings/unknown-keys.js";
import type { Contributions } from "./contributions.js";
import type { Candidate } from "./discover.js";
import { registerDeclaredProviders } from "./declared-providers.js";
import { apiFits } from "./api-fit.js";
import { loadEntry } from "./loader.js";
import { activationEvents, declaredNames } from "./manifest.js";
import { ManifestCache } from "./manifest-cache.js";
import { orderPlugins } from "./order.js";
import { keelCacheDir } from "../cache-dir.js";
import { trace } from "../trace.js";
import { pluginSettings } from "./plugin-settings.js";
import { createScope, type PluginScope } from "./plugin-api.js";
import { declaredTool } from "./declared-tools.js";
import type { PluginEntries } from "../runtime/plugin-entries.js";

/** The definition of a plugin without code: all it contributes is declared in its manifest. */
const DECLARATIONS_ONLY: PluginDefinition = { activate() {} };

/** Failures (hook or event handler errors) after which an active plugin is shown as degraded. */
const DEGRADED_AFTER = 3;

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
}

/** Which plugins may load, from settings (`plugins.disabled`) and the managed layer (`allowed`, `blocked`). */
export interface PluginPolicy {
  disabled: readonly string[];
  blocked: readonly string[];
  /** When set, only these load from outside the distribution. */
  allowed?: readonly string[];
  /** Where the managed layer is, for messages. */
  managedFile: string;
  /** Whether the project folder is trusted; its `.keel/plugins` load only then (never before it is decided). */
  projectTrusted: boolean;
}

/** The hook a plugin taps to decide project trust; such plugins activate before the project's settings apply. */
const TRUST_HOOK = "project_trust";

export class PluginHost {
  private readonly records: PluginRecord[] = [];
  private readonly activated: PluginRecord[] = [];

  constructor(private readonly deps: HostDeps) {
    deps.bus.on("plugin_error", ({ plugin }) => this.countFailure(plugin.name));
  }

  /** Reads every candidate's manifest and decides what can be activated. Runs no plugin code. */
  register(candidates: Candidate[], inline: InlineCandidate[] = []): void {
    const manifests = new ManifestCache(join(keelCacheDir(), "manifests.json"));
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
      const manifest = {
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

  /** Lazy plugins' tools declared in full, so the model sees them; the first call activates the plugin. */
  private offerDeclaredTools(): void {
    for (const r of this.records) {
      if (r.state !== "lazy" || r.events.includes("onStartup")) continue;
      for (const entry of r.manifest!.contributes.tools) {
        if (typeof entry === "string" || !r.events.includes(`${CONTRIBUTIONS.tools.event}:${entry.name}`)) continue;
        const tool = declaredTool(entry, () => this.registeredTool(r, entry.name));
        (r.offered ??= []).push(this.deps.contributions.tools.add(entry.name, tool, r));
      }
    }
  }

  private async registeredTool(r: PluginRecord, name: string): Promise<Tool> {
    if (!(await this.activate(r)))
      throw new Error(`The tool "${name}" is unavailable: plugin ${r.name} could not be activated (${r.reason}).`);
    const entry = this.deps.contributions.tools.list().find((e) => e.owner.name === r.name && e.declared === name);
    if (!entry) {
      throw new Error(
        `Plugin ${r.name} declares the tool "${name}" in keel.contributes.tools but did not ` +
          `register it when activated, so nothing was run. The plugin's author must register it in ` +
          `activate() or remove it from the manifest.`,
      );
    }
    return entry.item;
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
    for (const [name, why] of failed)
      this.fail(
        this.records.find((r) => r.name === name)!,
        "dependencies",
        why,
      );
  }

  /** Why `policy` keeps a plugin from loading, or undefined when it may load. */
  private policyBars(r: PluginRecord, policy: PluginPolicy): string | undefined {
    if (r.source === "project" && !policy.projectTrusted)
      return "the project folder is not trusted (keel trust, or --trust for one run)";
    if (policy.blocked.includes(r.name))
      return `blocked by the managed settings (plugins.blocked in ${policy.managedFile})`;
    if (policy.allowed && r.source !== "distribution" && !policy.allowed.includes(r.name))
      return `not in plugins.allowed of the managed settings (${policy.managedFile})`;
    if (policy.disabled.includes(r.name)) return "disabled in settings (plugins.disabled)";
    return undefined;
  }

  /**
   * Activates the plugins that tap `project_trust`, before the project's settings are known: they see only the
   * other layers. A plugin the project could disable must not decide whether the project is trusted.
   */
  async activateTrustDeciders(policy: PluginPolicy): Promise<void> {
    for (const r of this.records) {
      if (r.state === "lazy" && r.manifest!.contributes.hooks.includes(TRUST_HOOK) && !this.policyBars(r, policy))
        await this.activate(r);
    }
  }

  /**
   * Marks the plugins `policy` keeps from loading as disabled (the final settings are known now), then offers
   * the declared tools of the lazy plugins left.
   */
  applyPolicy(policy: PluginPolicy): void {
    for (const r of this.records) {
      const bars = r.state === "lazy" ? this.policyBars(r, policy) : undefined;
      if (bars) {
        r.state = "disabled";
        r.reason = bars;
      }
    }
    this.offerDeclaredTools();
  }

  /** Whether some plugin's manifest contributes this subcommand. */
  declaresCliCommand(name: string): boolean {
    return this.records.some((r) => r.manifest?.contributes.cliCommands.includes(name));
  }

  /** Activates these plugins now, whatever their activation events (required plugins start with the host). */
  async activateNow(names: readonly string[]): Promise<void> {
    for (const r of this.records) if (names.includes(r.name)) await this.activate(r);
  }

  /** The record of one plugin, for the required-plugins check. */
  find(name: string): Readonly<PluginRecord> | undefined {
    return this.records.find((r) => r.name === name);
  }

  list(): PluginInfo[] {
    return this.records.map((r) => ({
      name: r.name,
      version: r.version,
      source: r.source,
      dir: r.dir,
      state: r.state,
      reason: r.reason,
      contributes: declaredNames(r.manifest),
    }));
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
    for (const r of this.records) if (r.state === "lazy" && r.events.includes("onStartup")) await this.activate(r);
  }

  /**
   * Fires the activation event of `kind`'s contribution `name` (`onCommand:/compact`): activates the lazy
   * plugins waiting for it; `*` matches every plugin waiting for any of that kind. Resolves once they are
   * active (or failed).
   */
  async activateFor(kind: ContributionKind, name: string): Promise<void> {
    const prefix = `${CONTRIBUTIONS[kind].event}:`;
    for (const r of this.records) {
      if (r.state !== "lazy") continue;
      const fires = (e: string) => declaresName([e], prefix + name) || (name === "*" && e.startsWith(prefix));
      if (r.events.some(fires)) await this.activate(r);
    }
  }

  /**
   * Activates the lazy plugins whose manifest names provider APIs they serve (`keel.providerApis`): they
   * register the providers the user's settings define, whose ids no manifest lists.
   */
  async activateProviderApiServers(): Promise<void> {
    for (const r of this.records)
      if (r.state === "lazy" && (r.manifest?.providerApis.length ?? 0) > 0) await this.activate(r);
  }

  /** Whether some lazy plugin waits for `kind`'s contribution `name`. */
  waitsFor(kind: ContributionKind, name: string): boolean {
    return this.records.some((r) => r.state === "lazy" && r.events.includes(`${CONTRIBUTIONS[kind].event}:${name}`));
  }

  private async activate(r: PluginRecord): Promise<boolean> {
    if (r.state === "active" || r.state === "degraded") return true;
    if (r.state !== "lazy") return false;
    if (r.pending) return r.pending;
    r.pending = this.doActivate(r).finally(() => (r.pending = undefined));
    return r.pending;
  }

  private async doActivate(r: PluginRecord): Promise<boolean> {
    for (const dep of Object.keys(r.manifest!.dependsOn)) {
      const target = this.records.find((x) => x.name === dep);
      if (!target || !(await this.activate(target)))
        return this.fail(
          r,
          "dependencies",
          `its dependency ${dep} could not be activated${target?.reason ? ` (${target.reason})` : ""}`,
        );
    }
    const started = performance.now();
    let definition: PluginDefinition<any>;
    try {
      const entry = r.manifest!.entry;
      definition =
        r.inline ??
        (entry === undefined
          ? DECLARATIONS_ONLY
          : await runWithDeadline(this.deps.activationTimeoutMs(), undefined, () => loadEntry(r.dir, entry)));
    } catch (error) {
      return this.fail(r, "load", errorText(error));
    }
    trace(`loaded ${r.name}`);
    const allSettings = this.deps.settings();
    const settings = pluginSettings(r.settingsKey, allSettings[r.settingsKey], definition, (message) =>
      this.deps.bus.emit("plugin_warning", { plugin: { name: r.name, version: r.version }, message }),
    );
    if (!settings.ok) return this.fail(r, "settings", settings.reason);
    if (definition.settings) this.warnUnknownKeys(r, definition.settings);
    // The plugin's own registrations replace the declarations offered for it.
    for (const off of r.offered?.splice(0) ?? []) off();
    const m = r.manifest!;
    const scope = createScope(r, settings.value, {
      ...this.deps,
      settings: allSettings,
      untrustedSettings: this.deps.untrustedSettings(r.settingsKey),
      reads: m.reads,
      activateFor: (kind, name) => this.activateFor(kind, name),
      declared: r.inline ? undefined : declaredNames(m),
      servesProviderApis: m.providerApis.length > 0,
    });
    r.scope = scope;
    try {
      const dispose = await runWithDeadline(this.deps.activationTimeoutMs(), undefined, () =>
        definition.activate(scope.api),
      );
      if (typeof dispose === "function") scope.api.onDispose(dispose);
      await registerDeclaredProviders(scope.api, m.providers);
    } catch (error) {
      scope.revoke();
      await scope.dispose();
      r.scope = undefined;
      const why = errorText(error);
      return this.fail(
        r,
        "activate",
        /timed out/.test(why)
          ? `activate() did not finish within ${this.deps.activationTimeoutMs()} ms`
          : `activate() threw: ${why}`,
      );
    }
    r.state = r.failures >= DEGRADED_AFTER ? "degraded" : "active";
    if (!r.inline) this.warnUnregistered(r);
    trace(`activated ${r.name}`);
    this.activated.push(r);
    this.deps.bus.emit("plugin_activated", {
      plugin: { name: r.name, version: r.version },
      ms: performance.now() - started,
    });
    return true;
  }

  /** Keys in the plugin's section, in any layer, that its schema does not have (zod drops them silently). */
  private warnUnknownKeys(r: PluginRecord, schema: z.ZodType): void {
    for (const layer of this.deps.settingLayers()) {
      for (const message of sectionKeyWarnings(
        schema,
        r.settingsKey,
        layer.value?.[r.settingsKey],
        layer.name,
        "the plugin",
      )) {
        this.deps.bus.emit("plugin_warning", { plugin: { name: r.name, version: r.version }, message });
      }
    }
  }

  /** The settings sections discovered plugins own or read, loaded or not: what top-level keys may be. */
  /** The settings paths (`"permissions.deny"`) whose lists every layer adds to, from `keel.addingLists`. */
  addingLists(): string[] {
    return this.records.flatMap((r) => (r.manifest?.addingLists ?? []).map((key) => `${r.settingsKey}.${key}`));
  }

  knownSettingsKeys(): string[] {
    return this.records.flatMap((r) => [r.settingsKey, ...(r.manifest?.reads ?? [])]).filter((key) => key.length > 0);
  }

  /** Names the manifest declares that activate() did not register or tap: listings and lazy activation promised them. */
  private warnUnregistered(r: PluginRecord): void {
    const declared = declaredNames(r.manifest);
    for (const hook of declared.hooks.filter((h) => !r.scope?.tapped.has(h))) {
      const message =
        `declares the ${hook} hook in keel.contributes.hooks but did not tap it when ` +
        `activated; remove it from the manifest or tap it in activate().`;
      this.deps.bus.emit("plugin_warning", { plugin: { name: r.name, version: r.version }, message });
    }
    for (const kind of CONTRIBUTION_KINDS) {
      const registered = this.deps.contributions[kind].declaredBy(r.name);
      // A `prefix*` entry names a family known only at run time: it may have no member yet.
      const promised = declared[kind].filter((n) => !n.endsWith("*"));
      for (const name of promised.filter((n) => !registered.includes(n))) {
        const message =
          `declares ${CONTRIBUTIONS[kind].noun} "${name}" in keel.contributes.${kind} ` +
          `but did not register it when activated; remove it from the manifest or register it in activate().`;
        this.deps.bus.emit("plugin_warning", { plugin: { name: r.name, version: r.version }, message });
      }
    }
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
