/**
 * The confined plugin's host process (core/dist/plugin-host.cjs): it loads one plugin's entry as keel's own
 * process would (jiti, the host's modules) and gives its `activate` a `PluginAPI` whose every call crosses to
 * keel (wire.ts), so the plugin's code is the one in-process plugins run. It reaches nothing keel does not hand
 * it: the sandbox around this process (sandbox-command.ts) allows only the declared capabilities.
 */
import type { Message, PluginAPI, PluginDefinition, PluginEntry, Runtime, Tool } from "@keel/extensions-api";
import { loadEntry } from "../host/loader.js";
import { pluginSettings } from "../host/plugin-settings.js";
import { sectionKeyWarnings } from "../settings/unknown-keys.js";
import { installDenials } from "./denials.js";
import { startBridge } from "./bridge.js";
import type { ActivateRequest, ChildNotice } from "./protocol.js";
import { Endpoint, type WireMessage } from "./wire.js";
import { confinedRuntime, type RuntimeValues } from "./runtime-facade.js";

const send = process.send?.bind(process);
if (!send) {
  process.stderr.write("keel: the plugin host runs only as keel's child process\n");
  process.exit(2);
}
const endpoint = new Endpoint((message) => send(message));
process.on("message", (message) => endpoint.receive(message as WireMessage));
// keel closing the channel is the end of this process, whatever the plugin left running.
process.on("disconnect", () => process.exit(0));

let runtime: Runtime | undefined;
let values: RuntimeValues | undefined;
let messages: Message[] = [];
let entries: readonly PluginEntry[] = [];
endpoint.onApp = (body) => {
  const notice = body as ChildNotice;
  if (notice.runtimeMethods)
    runtime = confinedRuntime(
      notice.runtimeMethods,
      () => values,
      () => messages,
    );
  if (notice.runtimeValues) values = notice.runtimeValues;
  if (notice.messages) messages = [...messages.slice(0, notice.messagesFrom ?? 0), ...notice.messages];
  if (notice.entries) entries = notice.entries;
};

/** A remover that can be called at once, though the remote one arrives later. */
function remover(pending: unknown): () => void {
  return () => void Promise.resolve(pending).then((off) => typeof off === "function" && off());
}

/** Each call's input parsed again by the plugin's own schema, so its defaults and transforms apply here too. */
function confinedTool(tool: Tool<any, any>): Tool<any, any> {
  return { ...tool, execute: (input, ctx) => tool.execute(tool.parameters.parse(input), ctx) };
}

async function activate(request: ActivateRequest): Promise<{ problem?: string }> {
  installDenials(request.grants, (capability, detail) => request.denied(capability, detail));
  // As in keel's own process: a plugin's stray error is reported against it, and it keeps running.
  process.on("uncaughtException", (error) => request.uncaught(error));
  process.on("unhandledRejection", (reason) => request.uncaught(reason));
  if (request.bridge) await startBridge();
  const definition: PluginDefinition<any> = await loadEntry(request.dir, request.entry);
  const remote = request.api;
  const warn = (message: string) => remote.log.warn(message);
  const settings = pluginSettings(request.settingsKey, request.section, definition, warn);
  if (!settings.ok) return { problem: settings.reason };
  if (definition.settings)
    for (const layer of request.layers)
      for (const message of sectionKeyWarnings(
        definition.settings,
        request.settingsKey,
        layer.value,
        layer.name,
        "the plugin",
      ))
        warn(message);
  const registrars = Object.fromEntries(
    Object.entries(remote)
      .filter(([name, fn]) => name.startsWith("register") && typeof fn === "function")
      .map(([name, fn]) => [name, (item: unknown) => remover((fn as (i: unknown) => unknown)(item))]),
  );
  const api: PluginAPI<unknown> = {
    ...remote,
    ...registrars,
    settings: settings.value,
    registerTool: (tool) => remover(remote.registerTool(confinedTool(tool))),
    hooks: { tap: (...args: unknown[]) => remover((remote.hooks.tap as Function)(...args)) } as PluginAPI["hooks"],
    events: {
      on: (event, handler) => remover(remote.events.on(event, handler)),
      onAny: (handler) => remover(remote.events.onAny(handler)),
    },
    session: {
      append: (kind, data) => {
        const entry = { plugin: remote.plugin.name, kind, data, timestamp: Date.now() } as PluginEntry;
        if (!runtime)
          throw new Error(
            `${remote.plugin.name}: api.session.append is available from the session_start hook on, ` +
              "not during activate().",
          );
        entries = [...entries, entry];
        void Promise.resolve(remote.session.append(kind, data)).catch((error: Error) => warn(error.message));
        return entry;
      },
      entries: (kind) => entries.filter((e) => kind === undefined || e.kind === kind),
    },
    get runtime(): Runtime {
      if (!runtime)
        throw new Error(
          `${remote.plugin.name}: api.runtime is available from the session_start hook on, not during activate().`,
        );
      return runtime;
    },
  };
  const dispose = await definition.activate(api);
  if (typeof dispose === "function") api.onDispose(dispose);
  return {};
}

endpoint.sendApp({ ready: true, activate });
