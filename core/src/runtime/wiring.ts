/**
 * What a runtime is made of, built once when it is: the kernel's bus and hooks (a failing handler reported as
 * `plugin_error`, a block as `guard_blocked`), the registries, the settings view, the plugin host, the session's
 * moves, the model choice, the backend and the tools in effect. The parts read the runtime's own state
 * (`RuntimeState`) when they are used, never while they are built.
 */
import type { EventSubscriber, PluginRef, Runtime, ThinkingLevel } from "@keel/extensions-api";
import { EventBus, HookBus, KERNEL, type Agent, type HookFailure } from "@keel/kernel";
import { PluginHost } from "../host/plugin-host.js";
import { decideConfinement, mustConfine } from "../confine/policy.js";
import { createContributions, type Contributions } from "../host/registries.js";
import { namedLayers, type SettingLayers } from "../settings/layers.js";
import { ModelChoice } from "./model-choice.js";
import { SessionBackend } from "./session-backend.js";
import type { SessionParts } from "./session-loop.js";
import { SessionMoves } from "./session-moves.js";
import { SettingsView } from "./settings-view.js";
import type { RuntimeOptions } from "./start.js";
import { ToolsInEffect } from "./tool-wiring.js";

/** The runtime's own state, as its parts read it. */
export interface RuntimeState {
  /** The runtime, once the session started (plugins may then use `api.runtime`). */
  runtime(): Runtime | undefined;
  agent(): Agent;
  projectTrusted(): boolean;
  /** The flags given, as the CLI parsed them. */
  flags: Record<string, unknown>;
}

export interface Wiring extends SessionParts {
  contributions: Contributions;
  host: PluginHost;
  view: SettingsView;
  /** The kernel's own subscriber view of the bus (`Runtime.events`). */
  events: EventSubscriber;
  /** Whether a plugin is one of the distribution's own (who may answer a `distributionOnly` question). */
  shipped(owner: PluginRef): boolean;
}

/** `Runtime.app`: the distribution's command and version, and its locked keys (known once manifests are read). */
export function appInfo(distribution: RuntimeOptions["distribution"], locked: () => readonly string[]) {
  return {
    command: distribution?.command ?? "keel",
    version: distribution?.version ?? "",
    get locked() {
      return locked();
    },
  };
}

export function wire(options: RuntimeOptions, layers: SettingLayers, state: RuntimeState): Wiring {
  const { cwd, keelHome } = options;
  // The distribution's command is what messages call the program.
  const command = options.distribution?.command ?? "keel";
  const bus = new EventBus();
  let host: PluginHost | undefined;
  const view = new SettingsView(layers, options.distribution?.locked ?? [], command, layers.warnings, {
    addingLists: () => host?.addingLists() ?? [],
    lockedWith: (locked) => host?.lockedWith(locked) ?? [],
  });
  const core = () => view.core;
  const hooks = new HookBus(
    (f) => bus.emit("plugin_error", { plugin: f.owner, phase: `hook ${f.hook}`, message: hookFailure(f) }),
    (hook, by, reason, subject, agent) =>
      bus.emit("guard_blocked", agent ? { hook, by, reason, subject, agent } : { hook, by, reason, subject }),
  );
  const contributions = createContributions(
    () => core().prefer,
    (message, owner) => bus.emit("plugin_warning", { plugin: { name: owner.name, version: owner.version }, message }),
  );
  const session = new SessionMoves(bus, keelHome, contributions, state.agent);
  host = new PluginHost({
    bus,
    hooks,
    contributions,
    cwd,
    keelHome,
    settings: () => view.settings,
    untrustedSettings: (key) => view.untrusted(key),
    projectTrusted: state.projectTrusted,
    settingLayers: () => namedLayers(view.layers),
    activationTimeoutMs: () => core().activationTimeoutMs,
    session: session.entries,
    runtime: state.runtime,
    confinement: (r) => decideConfinement(r, options.confine, core().plugins),
    confined: (r) => mustConfine(r, options.confine, core().plugins),
  });
  const target = new ModelChoice(host, contributions, hooks, command, () => ({
    provider: str(state.flags.provider) ?? core().provider,
    model: str(state.flags.model) ?? core().model,
    thinking: (str(state.flags.thinking) as ThinkingLevel | undefined) ?? core().thinking,
  }));
  const backend = new SessionBackend({
    cwd,
    host,
    contributions,
    setting: () => core().ops,
    managed: () => view.managedOps,
    given: state.flags,
    entries: session.entries,
  });
  const tools = new ToolsInEffect(
    () => contributions.tools.entries(),
    () => core().tools.enabled,
  );
  const promptAdditions = options.distribution?.promptAdditions ?? [];
  const events = bus.subscriberFor(KERNEL, () => undefined);
  const thinking = () => target.thinking;
  return {
    bus,
    hooks,
    cwd,
    core,
    promptAdditions,
    target,
    tools,
    backend,
    session,
    thinking,
    contributions,
    host,
    view,
    events,
    shipped: (owner) => host.list().some((p) => p.name === owner.name && p.source === "distribution"),
  };
}

/** Names the hook and, when the plugin named its handler, the handler: the plugin itself is the event's. */
function hookFailure(f: HookFailure): string {
  return `its ${f.hook} hook${f.tap !== f.owner.name ? ` handler "${f.tap}"` : ""} failed: ${f.message}`;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}
