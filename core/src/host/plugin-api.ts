/**
 * The API object one plugin receives. Everything it registers is recorded against the plugin, so disposing
 * or failing the plugin removes all of it; once revoked (a timed-out activate), late registrations throw.
 */
import { PLUGIN_EVENTS, type PluginAPI, type PluginRef, type PluginSource, type Runtime } from "@keel/extensions-api";
import type { EventBus } from "../bus/event-bus.js";
import type { HookBus } from "../hooks/hook-bus.js";
import type { Owner } from "../registry/registry.js";
import type { Contributions } from "./contributions.js";

export interface ScopeDeps {
  bus: EventBus;
  hooks: HookBus;
  contributions: Contributions;
  cwd: string;
  keelHome: string;
  allSettings: Readonly<Record<string, unknown>>;
  runtime(): Runtime | undefined;
  /** Declared contributions, to warn about undeclared ones; undefined for plugins given as objects. */
  declared?: { tools: string[]; commands: string[]; providers: string[]; modes: string[] };
}

export interface PluginScope {
  api: PluginAPI<unknown>;
  /** Runs every disposer in reverse order; errors are collected, never thrown. */
  dispose(): Promise<string[]>;
  revoke(): void;
}

export function createScope(owner: Owner & { dir: string; source: PluginSource }, settings: unknown, deps: ScopeDeps): PluginScope {
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
  const warnUndeclared = (kind: "tools" | "commands" | "providers" | "modes", name: string) => {
    if (deps.declared && !deps.declared[kind].includes(name)) {
      deps.bus.emit("plugin_warning", { plugin: ref, message: `registered ${kind.slice(0, -1)} "${name}" that its manifest does not list in keel.contributes.${kind}; listings and lazy activation will not know about it.` });
    }
  };
  const log = {
    debug: (m: string) => process.env.KEEL_DEBUG && process.stderr.write(`[${owner.name}] ${m}\n`),
    info: (m: string) => process.env.KEEL_DEBUG && process.stderr.write(`[${owner.name}] ${m}\n`),
    warn: (m: string) => deps.bus.emit("plugin_warning", { plugin: ref, message: m }),
    error: (m: string) => deps.bus.emit("plugin_error", { plugin: ref, phase: "log", message: m }),
  };
  const c = deps.contributions;

  const api: PluginAPI<unknown> = {
    plugin: { ...ref, dir: owner.dir, source: owner.source },
    settings,
    allSettings: deps.allSettings,
    cwd: deps.cwd,
    keelHome: deps.keelHome,
    hooks: deps.hooks.registrarFor(ref, track),
    events: deps.bus.subscriberFor(ref, track),
    log: log as PluginAPI["log"],
    registerTool(tool) {
      if (!tool || typeof tool.name !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(tool.name)) throw new Error(`a tool name must be 1-64 letters, digits, _ or - (got ${JSON.stringify(tool?.name)})`);
      if (typeof tool.execute !== "function" || typeof tool.parameters?.safeParse !== "function") throw new Error(`tool "${tool.name}" needs a zod \`parameters\` schema and an \`execute\` function`);
      warnUndeclared("tools", tool.name);
      track(c.tools.add(tool.name, tool, owner));
    },
    registerProvider(provider) {
      if (typeof provider?.stream !== "function" || typeof provider.models !== "function") throw new Error(`provider "${provider?.id}" needs \`stream\` and \`models\` functions`);
      // Providers defined in the shared `providers` settings section are registered by the plugin serving their API.
      const fromSettings = Object.hasOwn((deps.allSettings.providers as object | undefined) ?? {}, provider.id);
      if (!fromSettings) warnUndeclared("providers", provider.id);
      track(c.providers.add(provider.id, provider, owner));
    },
    registerCommand(command) {
      const name = command.name.startsWith("/") ? command.name : `/${command.name}`;
      warnUndeclared("commands", name);
      track(c.commands.add(name, { ...command, name }, owner));
    },
    registerMode(mode) {
      warnUndeclared("modes", mode.name);
      track(c.modes.add(mode.name, mode, owner));
    },
    registerFlag(flag) {
      track(c.flags.add(flag.name, flag, owner));
    },
    registerCliCommand(command) {
      track(c.cliCommands.add(command.name, command, owner));
    },
    registerOps(backend) {
      track(c.ops.add(backend.name, backend, owner));
    },
    publish(event, payload) {
      // Checked at run time too: a plugin written in JavaScript could name a kernel event.
      if (!(PLUGIN_EVENTS as readonly string[]).includes(event)) throw new Error(`${owner.name}: "${event}" is not an event plugins may publish (they may publish ${PLUGIN_EVENTS.join(", ")})`);
      deps.bus.emit(event, payload);
    },
    get runtime(): Runtime {
      const runtime = deps.runtime();
      if (!runtime) throw new Error(`${owner.name}: api.runtime is available from the session_start hook on, not during activate().`);
      return runtime;
    },
    onDispose(fn) {
      track(fn);
    },
  };

  return {
    api,
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
