/**
 * The API object one plugin receives. Everything it registers is recorded against the plugin, so disposing
 * or failing the plugin removes all of it; once revoked (a timed-out activate), late registrations throw.
 */
import {
  declaresName,
  CONTRIBUTION_KINDS,
  type CliCommandDeclaration,
  CONTRIBUTIONS,
  type ContributionKind,
  type ContributionTypes,
  type DeclaredContributions,
  type HookRegistrar,
  PLUGIN_EVENTS,
  type PluginAPI,
  type PluginRef,
  type PluginSource,
  type Runtime,
} from "@keel/extensions-api";
import type { EventBus, HookBus } from "@keel/kernel";
import type { Owner, Registry } from "./registry.js";
import type { PluginEntries } from "./plugin-entries.js";
import { ADMISSIONS, type Admission, type Contributions } from "./registries.js";
import { cliCommandMismatch } from "./declared-cli-commands.js";

type RegisterMethods = (typeof CONTRIBUTIONS)[ContributionKind]["register"];

export interface ScopeDeps {
  bus: EventBus;
  hooks: HookBus;
  contributions: Contributions;
  cwd: string;
  keelHome: string;
  /** The whole merged settings (the host's view; a plugin sees only what it reads). */
  settings: Readonly<Record<string, unknown>>;
  /** The managed layer alone (the host's view; a plugin sees only what it reads). */
  managedSettings: Readonly<Record<string, unknown>>;
  /** This plugin's section as an untrusted project wrote it. */
  untrustedSettings: unknown;
  projectTrusted(): boolean;
  /** The sections beyond its own the plugin declares it reads (`keel.reads`). */
  reads: readonly string[];
  runtime(): Runtime | undefined;
  /** The plugin entries of the active branch; `api.session` reads and appends this plugin's. */
  session: PluginEntries;
  /** Activates the lazy plugins waiting to contribute `name` of `kind` (e.g. the backend an `ops` wrapper wants). */
  activateFor(kind: ContributionKind, name: string): Promise<void>;
  /** Declared contributions, to warn about undeclared ones; undefined for plugins given as objects. */
  declared?: DeclaredContributions;
  /** The manifest's `contributes.cliCommands`, whose declarations in full registrations must match. */
  cliCommands?: readonly (string | CliCommandDeclaration)[];
  /** The plugin serves provider APIs (`keel.providerApis`): the provider ids it registers come from settings. */
  servesProviderApis?: boolean;
}

export interface PluginScope {
  api: PluginAPI<unknown>;
  /** The hooks the plugin tapped, to compare with what its manifest declares. */
  tapped: ReadonlySet<string>;
  /** Runs every disposer in reverse order; errors are collected, never thrown. */
  dispose(): Promise<string[]>;
  revoke(): void;
}

/** What `api.allSettings` shows a plugin: its own section and the ones it declares it reads, nothing else. */
function readableSettings(
  all: Readonly<Record<string, unknown>>,
  own: string,
  reads: readonly string[],
): Readonly<Record<string, unknown>> {
  return Object.freeze(
    Object.fromEntries([own, ...reads].filter((key) => Object.hasOwn(all, key)).map((key) => [key, all[key]])),
  );
}

export function createScope(
  owner: Owner & { dir: string; source: PluginSource; settingsKey: string },
  settings: unknown,
  deps: ScopeDeps,
): PluginScope {
  const disposers: (() => void | Promise<void>)[] = [];
  let revoked = false;
  const ref: PluginRef = { name: owner.name, version: owner.version };
  const track = (dispose: () => void | Promise<void>) => {
    if (revoked) {
      void dispose();
      throw new Error(`${owner.name} is no longer active; it cannot register anything now.`);
    }
    disposers.push(dispose);
  };
  // A plugin serving provider APIs (keel.providerApis) registers the ids the user's settings define.
  const implicit = (kind: ContributionKind) => kind === "providers" && deps.servesProviderApis === true;
  const register = <K extends ContributionKind>(kind: K, item: ContributionTypes[K]) => {
    const admission = ADMISSIONS[kind] as Admission<ContributionTypes[K]>;
    const problem = admission.problem?.(item);
    if (problem) throw new Error(problem);
    const admitted = admission.normalise?.(item) ?? item;
    const name = admission.nameOf(admitted);
    if (deps.declared && !declaresName(deps.declared[kind], name) && !implicit(kind)) {
      const message =
        `registered ${CONTRIBUTIONS[kind].noun} "${name}" that its manifest does not ` +
        `list in keel.contributes.${kind}; listings and lazy activation will not know about it.`;
      deps.bus.emit("plugin_warning", { plugin: ref, message });
    }
    const mismatch = kind === "cliCommands" ? cliCommandMismatch(deps.cliCommands, admitted as never) : undefined;
    if (mismatch) deps.bus.emit("plugin_warning", { plugin: ref, message: mismatch });
    const remove = (deps.contributions[kind] as Registry<ContributionTypes[K]>).add(name, admitted, owner);
    track(remove);
    return remove;
  };
  const tapped = new Set<string>();
  const registrars = Object.fromEntries(
    CONTRIBUTION_KINDS.map((kind) => [CONTRIBUTIONS[kind].register, (item: never) => register(kind, item)]),
  );
  const log = {
    debug: (m: string) => process.env.KEEL_DEBUG && process.stderr.write(`[${owner.name}] ${m}\n`),
    info: (m: string) => process.env.KEEL_DEBUG && process.stderr.write(`[${owner.name}] ${m}\n`),
    warn: (m: string) => deps.bus.emit("plugin_warning", { plugin: ref, message: m }),
    error: (m: string) => deps.bus.emit("plugin_error", { plugin: ref, phase: "log", message: m }),
  };
  const api: PluginAPI<unknown> = {
    plugin: { ...ref, dir: owner.dir, source: owner.source },
    settings,
    allSettings: readableSettings(deps.settings, owner.settingsKey, deps.reads),
    managedSettings: readableSettings(deps.managedSettings, owner.settingsKey, deps.reads),
    untrustedSettings: deps.untrustedSettings,
    get projectTrusted() {
      return deps.projectTrusted();
    },
    cwd: deps.cwd,
    keelHome: deps.keelHome,
    hooks: declaredHooksOnly(deps.hooks.registrarFor(ref, track), (hook) => {
      tapped.add(hook);
      if (deps.declared && !deps.declared.hooks.includes(hook)) {
        deps.bus.emit("plugin_warning", {
          plugin: ref,
          message:
            `tapped the ${hook} hook that its manifest does not list in ` +
            `keel.contributes.hooks; listings will not know about it.`,
        });
      }
    }),
    events: deps.bus.subscriberFor(ref, track),
    log: log as PluginAPI["log"],
    ...(registrars as unknown as Pick<PluginAPI, RegisterMethods>),
    publish(event, payload) {
      // Checked at run time too: a plugin written in JavaScript could name a kernel event.
      if (!(PLUGIN_EVENTS as readonly string[]).includes(event))
        throw new Error(
          `${owner.name}: "${event}" is not an event plugins may publish (they may ` +
            `publish ${PLUGIN_EVENTS.join(", ")})`,
        );
      return deps.bus.emit(event, payload);
    },
    async opsBackend(name) {
      if (!deps.contributions.ops.get(name)) await deps.activateFor("ops", name);
      return deps.contributions.ops.get(name)?.item;
    },
    session: {
      append(kind, data) {
        if (!deps.runtime())
          throw new Error(
            `${owner.name}: api.session.append is available from the session_start hook on, not during activate().`,
          );
        return deps.session.append(owner.name, kind, data);
      },
      entries: (kind) => deps.session.of(owner.name, kind),
    },
    get runtime(): Runtime {
      const runtime = deps.runtime();
      if (!runtime)
        throw new Error(
          `${owner.name}: api.runtime is available from the session_start hook on, not during activate().`,
        );
      return runtime;
    },
    onDispose(fn) {
      track(fn);
    },
  };

  return {
    api,
    tapped,
    revoke: () => {
      revoked = true;
    },
    async dispose() {
      const errors: string[] = [];
      for (const fn of disposers.splice(0).reverse()) {
        try {
          await fn();
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
      return errors;
    },
  };
}

/** `registrar`, telling `onTap` the name of each hook it tapped. */
function declaredHooksOnly(registrar: HookRegistrar, onTap: (hook: string) => void): HookRegistrar {
  const tap = (hook: string, ...rest: unknown[]) => {
    const off = (registrar.tap as (...args: unknown[]) => () => void)(hook, ...rest);
    onTap(hook);
    return off;
  };
  return { tap } as HookRegistrar;
}
