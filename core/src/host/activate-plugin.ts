/**
 * Activating one plugin: its dependencies first, then load its entry (with a deadline), validate its settings,
 * run `activate` in a fresh scope, and check what it registered against what its manifest declares.
 */
import {
  CONTRIBUTION_KINDS,
  CONTRIBUTIONS,
  type ContributionKind,
  type PluginDefinition,
  type z,
} from "@keel/extensions-api";
import { errorText, runWithDeadline, processMs, trace } from "@keel/kernel";
import { sectionKeyWarnings } from "../settings/unknown-keys.js";
import { registerDeclaredProviders } from "./declared-providers.js";
import { loadEntry } from "./loader.js";
import { declaredNames } from "@keel/plugin-lock";
import { createScope } from "./plugin-api.js";
import type { HostDeps } from "./plugin-host.js";
import { pluginSettings } from "./plugin-settings.js";
import type { PluginRecord } from "./plugin-record.js";
import { activateConfined } from "../confine/activate-confined.js";

/** The definition of a plugin without code: all it contributes is declared in its manifest. */
const DECLARATIONS_ONLY: PluginDefinition = { activate() {} };

/** Failures (hook or event handler errors) after which an active plugin is shown as degraded. */
export const DEGRADED_AFTER = 3;

/** What activating one plugin needs of the host. */
export interface ActivationContext {
  deps: HostDeps;
  find(name: string): PluginRecord | undefined;
  /** Activates another record (a dependency), once. */
  activate(r: PluginRecord, by: string): Promise<boolean>;
  activateFor(kind: ContributionKind, name: string): Promise<void>;
  /** Marks the record failed and reports why; returns false. */
  fail(r: PluginRecord, phase: string, reason: string): false;
  /** Called once the plugin is active, before `plugin_activated` (disposal runs in this order, reversed). */
  activated(r: PluginRecord): void;
}

/** Activates a lazy record; resolves false (the record failed, with the reason reported) when it cannot. */
export async function activatePlugin(r: PluginRecord, ctx: ActivationContext): Promise<boolean> {
  const { deps } = ctx;
  for (const dep of Object.keys(r.manifest!.dependsOn)) {
    const target = ctx.find(dep);
    if (!target || !(await ctx.activate(target, `dependsOn of ${r.name}`)))
      return ctx.fail(
        r,
        "dependencies",
        `its dependency ${dep} could not be activated${target?.reason ? ` (${target.reason})` : ""}`,
      );
  }
  const started = processMs();
  const confinement = r.inline ? undefined : deps.confinement?.(r);
  if (confinement && "refused" in confinement) return ctx.fail(r, "confine", confinement.refused);
  if (confinement?.confine && r.manifest!.entry !== undefined) {
    if (confinement.warning) deps.bus.emit("plugin_warning", { plugin: r, message: confinement.warning });
    try {
      r.scope = await activateConfined(r, ctx, confinement.bwrap);
      await registerDeclaredProviders(r.scope.api, r.manifest!.providers);
    } catch (error) {
      r.scope = undefined;
      const phase = (error as { phase?: string }).phase ?? "activate";
      return ctx.fail(r, phase, phase === "settings" ? errorText(error) : `in its confined host: ${errorText(error)}`);
    }
    return activated(r, ctx, started);
  }
  let definition: PluginDefinition<any>;
  try {
    const entry = r.manifest!.entry;
    definition =
      r.inline ??
      (entry === undefined
        ? DECLARATIONS_ONLY
        : await runWithDeadline(deps.activationTimeoutMs(), undefined, () => loadEntry(r.dir, entry)));
  } catch (error) {
    return ctx.fail(r, "load", errorText(error));
  }
  trace(`loaded ${r.name}`);
  const allSettings = deps.settings();
  const settings = pluginSettings(r.settingsKey, allSettings[r.settingsKey], definition, (message) =>
    deps.bus.emit("plugin_warning", { plugin: { name: r.name, version: r.version }, message }),
  );
  if (!settings.ok) return ctx.fail(r, "settings", settings.reason);
  if (definition.settings) warnUnknownKeys(r, definition.settings, deps);
  // The plugin's own registrations replace the declarations offered for it.
  for (const off of r.offered?.splice(0) ?? []) off();
  const m = r.manifest!;
  const scope = createScope(r, settings.value, scopeDeps(r, ctx, allSettings));
  r.scope = scope;
  try {
    const dispose = await runWithDeadline(deps.activationTimeoutMs(), undefined, () => definition.activate(scope.api));
    if (typeof dispose === "function") scope.api.onDispose(dispose);
    await registerDeclaredProviders(scope.api, m.providers);
  } catch (error) {
    scope.revoke();
    await scope.dispose();
    r.scope = undefined;
    const why = errorText(error);
    return ctx.fail(
      r,
      "activate",
      /timed out/.test(why)
        ? `activate() did not finish within ${deps.activationTimeoutMs()} ms`
        : `activate() threw: ${why}`,
    );
  }
  return activated(r, ctx, started);
}

/** The plugin's activate() has run: mark it active, check its registrations, and say so. */
function activated(r: PluginRecord, ctx: ActivationContext, started: number): true {
  const { deps } = ctx;
  r.state = r.failures >= DEGRADED_AFTER ? "degraded" : "active";
  if (!r.inline) warnUnregistered(r, deps);
  trace(`activated ${r.name}`);
  ctx.activated(r);
  r.activationMs = processMs() - started;
  deps.bus.emit("plugin_activated", { plugin: { name: r.name, version: r.version }, ms: r.activationMs });
  return true;
}

/** What the plugin's scope needs of the host, whether the plugin runs here or confined. */
export function scopeDeps(r: PluginRecord, ctx: ActivationContext, allSettings: Readonly<Record<string, unknown>>) {
  const { deps } = ctx;
  const m = r.manifest!;
  return {
    ...deps,
    settings: allSettings,
    // The managed layer is the last one (namedLayers).
    managedSettings: deps.settingLayers().at(-1)?.value ?? {},
    untrustedSettings: deps.untrustedSettings(r.settingsKey),
    reads: m.reads,
    activateFor: (kind: ContributionKind, name: string) => ctx.activateFor(kind, name),
    declared: r.inline ? undefined : declaredNames(m),
    cliCommands: m.contributes.cliCommands,
    servesProviderApis: m.providerApis.length > 0,
  };
}

/** Keys in the plugin's section, in any layer, that its schema does not have (zod drops them silently). */
function warnUnknownKeys(r: PluginRecord, schema: z.ZodType, deps: HostDeps): void {
  for (const layer of deps.settingLayers()) {
    const section = layer.value?.[r.settingsKey];
    for (const message of sectionKeyWarnings(schema, r.settingsKey, section, layer.name, "the plugin"))
      deps.bus.emit("plugin_warning", { plugin: { name: r.name, version: r.version }, message });
  }
}

/** Names the manifest declares that activate() did not register or tap: listings and lazy activation promised them. */
function warnUnregistered(r: PluginRecord, deps: HostDeps): void {
  const warn = (message: string) =>
    deps.bus.emit("plugin_warning", { plugin: { name: r.name, version: r.version }, message });
  const declared = declaredNames(r.manifest);
  for (const hook of declared.hooks.filter((h) => !r.scope?.tapped.has(h)))
    warn(
      `declares the ${hook} hook in keel.contributes.hooks but did not tap it when activated; ` +
        "remove it from the manifest or tap it in activate().",
    );
  for (const kind of CONTRIBUTION_KINDS) {
    const registered = deps.contributions[kind].declaredBy(r.name);
    // A `prefix*` entry names a family known only at run time: it may have no member yet.
    const promised = declared[kind].filter((n) => !n.endsWith("*"));
    for (const name of promised.filter((n) => !registered.includes(n)))
      warn(
        `declares ${CONTRIBUTIONS[kind].noun} "${name}" in keel.contributes.${kind} but did not register it ` +
          "when activated; remove it from the manifest or register it in activate().",
      );
  }
}
