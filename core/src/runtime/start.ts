/**
 * Starting a runtime (`KeelRuntime.create`): settings, discovery, verification, manifests, trust, and the
 * plugins that start with the host. The order matters: the plugins that decide project trust activate first,
 * on settings without the project; then trust is decided and the settings settle; then everything else
 * activates on them. A required plugin that cannot run stops the start, after what started is disposed.
 */
import { join } from "node:path";
import { trace, type HookBus } from "@keel/kernel";
import { verifyInstalled } from "@keel/plugin-lock";
import { keelCacheDir } from "../cache-dir.js";
import { discover } from "../host/discover.js";
import type { PluginHost } from "../host/plugin-host.js";
import type { PluginPolicy } from "../host/plugin-policy.js";
import type { InlineCandidate } from "../host/plugin-record.js";
import type { CoreSettings } from "../settings/core-settings.js";
import { managedSettingsFile } from "../settings/managed.js";
import { unknownSettingsKeys } from "../settings/unknown-keys.js";
import { loadSettingLayers, namedLayers, type SettingLayers, type SettingsObject } from "../settings/layers.js";
import { decideProjectTrust, type ProjectTrust, type TrustOptions } from "../trust/decide.js";
import { TrustStore } from "../trust/trust-store.js";
import type { Distribution } from "./read-distribution.js";
import { requireProjectHooks } from "./required-hooks.js";
import { checkRequired } from "./required-plugins.js";
import type { ConfineMode } from "../confine/policy.js";
import { nearName } from "../cli/near-miss.js";

export interface RuntimeOptions {
  cwd: string;
  keelHome: string;
  distribution?: Distribution;
  pluginPaths?: string[];
  safeMode?: boolean;
  /** Layers from `--settings`, over the files. */
  extraSettings?: SettingsObject[];
  flags?: Record<string, unknown>;
  inline?: InlineCandidate[];
  /** How the project folder's trust is decided (`--trust`, whether the UI may ask). */
  trust?: TrustOptions;
  /** The managed settings file; default `KEEL_MANAGED_SETTINGS` or /etc/keel/managed-settings.json. */
  managedSettingsFile?: string;
  /** Which plugins run confined (confine/policy.ts), over the `plugins.confine` setting (the test kit's). */
  confine?: ConfineMode;
}

/** What the start drives of the runtime it starts. */
export interface Starting {
  host: PluginHost;
  hooks: HookBus;
  warnings: string[];
  /** Which plugins may load by the settings as they stand (before trust is decided, without the project's). */
  pluginPolicy(): PluginPolicy;
  requiredPlugins(): string[];
  /** Settles the settings on the project's trust and builds the loop on them; returns the kernel's own keys. */
  settle(trust: ProjectTrust): CoreSettings;
  shutdown(): Promise<void>;
}

/** The settings files a runtime reads before anything else. */
export function settingLayers(options: RuntimeOptions): SettingLayers {
  return loadSettingLayers({
    keelHome: options.keelHome,
    cwd: options.cwd,
    defaults: options.distribution?.settings,
    extra: options.extraSettings,
    managedFile: options.managedSettingsFile ?? managedSettingsFile(),
  });
}

export async function start(runtime: Starting, options: RuntimeOptions, layers: SettingLayers): Promise<void> {
  const command = options.distribution?.command ?? "keel";
  const { host } = runtime;
  const candidates = discover({
    distributionPlugins: options.distribution?.plugins ?? [],
    keelHome: options.keelHome,
    cliPlugins: options.pluginPaths ?? [],
    safeMode: options.safeMode ?? false,
    projectDir: options.cwd,
  });
  // A built distribution's plugins (npm ones installed, its own copied) are in its scope `bundled/`, locked too.
  const shipped = new Set(candidates.filter((c) => c.source === "distribution").map((c) => c.dir));
  const refused = verifyInstalled(
    candidates.filter((c) => c.source === "user" || c.source === "distribution").map((c) => c.dir),
    {
      keelHome: options.keelHome,
      cacheDir: join(keelCacheDir(), "verified"),
      command,
      shipped,
      distributionRoot: options.distribution?.root,
    },
  );
  trace("installed plugins verified");
  host.register(
    candidates.map((c) => ({ ...c, refused: refused.get(c.dir) })),
    options.inline,
  );
  runtime.warnings.push(...unknownSettingsKeys(namedLayers(layers), host.knownSettingsKeys()));
  const trust = await decideProjectTrust({
    cwd: options.cwd,
    project: layers.project,
    store: new TrustStore(options.keelHome),
    hooks: runtime.hooks,
    options: options.trust ?? {},
    // A near miss is answered "did you mean" without a session: nothing to ask about either.
    isCliCommand: (word) =>
      host.declaresCliCommand(word) || host.list().some((p) => nearName(word, p.contributes.cliCommands)),
    command,
    warnings: runtime.warnings,
    activateDeciders: () => host.activateTrustDeciders(runtime.pluginPolicy()),
  });
  const core = runtime.settle(trust);
  const unguarded = requireProjectHooks(runtime.hooks, trust, core, { name: command, version: "" });
  if (unguarded) runtime.warnings.push(unguarded);
  host.applyPolicy(runtime.pluginPolicy());
  const required = runtime.requiredPlugins();
  await host.activateNow(required);
  await host.activateStartup();
  const failure = checkRequired(required, host, {
    safeMode: options.safeMode ?? false,
    managedFile: layers.managedFile,
  });
  if (failure) {
    await runtime.shutdown();
    throw failure;
  }
}
