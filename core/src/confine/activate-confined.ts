/**
 * Activating a confined plugin: the same scope an in-process plugin gets (registrations recorded against it,
 * removed on dispose), handed across the wire to the plugin's host process, which loads the plugin and runs its
 * `activate` there. What only exists once a session does (the runtime, the plugin's session entries) is sent
 * before the next call that may need it.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import type { Message, PluginEntry, Runtime } from "@keel/extensions-api";
import { runtimeMethods, runtimeValues, valuesChanged, type RuntimeValues } from "./runtime-facade.js";
import { errorText, runWithDeadline } from "@keel/kernel";
import { scopeDeps, type ActivationContext } from "../host/activate-plugin.js";
import { createScope, type PluginScope } from "../host/plugin-api.js";
import type { PluginRecord } from "../host/plugin-record.js";
import { grantsOf } from "./grants.js";
import { startHostProcess } from "./host-process.js";
import { withGuardedOps } from "./ops-guard.js";

/** The plugin's own data folder (`{data}` in its capabilities), readable and writable when it is confined. */
export function pluginDataDir(keelHome: string, settingsKey: string): string {
  return join(keelHome, "plugin-data", settingsKey);
}

/** Starts the host process and activates the plugin in it; throws what went wrong, for the caller to report. */
export async function activateConfined(
  r: PluginRecord,
  ctx: ActivationContext,
  bwrap: string | undefined,
): Promise<PluginScope> {
  const { deps } = ctx;
  const m = r.manifest!;
  const ref = { name: r.name, version: r.version };
  const data = pluginDataDir(deps.keelHome, r.settingsKey);
  const grants = grantsOf(r.name, m.capabilities, { workspace: deps.cwd, data, home: homedir(), dir: r.dir });
  const warned = new Set<string>();
  const denied = (capability: string, detail = "") => {
    const key = capability || detail;
    if (warned.has(key)) return;
    warned.add(key);
    const need = capability
      ? `it would need "${capability}" in keel.capabilities`
      : "no capability allows it to a confined plugin";
    deps.bus.emit("plugin_warning", {
      plugin: ref,
      message: `was refused ${detail || capability} (confined to what it declares): ${need}.`,
    });
  };
  const host = await startHostProcess({
    grants,
    dataDir: data,
    bwrap,
    denied,
    ended: (why) => deps.bus.emit("plugin_error", { plugin: ref, phase: "confined", message: why }),
  });
  const allSettings = deps.settings();
  const scope = createScope(r, undefined, scopeDeps(r, ctx, allSettings));
  scope.api.onDispose(host.stop);
  let runtime: Runtime | undefined;
  let values: RuntimeValues | undefined;
  let messages: readonly Message[] | undefined;
  let sent = 0;
  let entries: readonly PluginEntry[] | undefined;
  host.endpoint.beforeCall = () => {
    const now = deps.runtime();
    if (now && now !== runtime) host.endpoint.sendApp({ runtimeMethods: runtimeMethods((runtime = now)) });
    if (now) {
      const latest = runtimeValues(now);
      if (valuesChanged(values, latest)) host.endpoint.sendApp({ runtimeValues: (values = latest) });
      // The history grows in place: send what was added, or all of it when it was replaced.
      const list = now.messages;
      if (list !== messages || list.length < sent) {
        host.endpoint.sendApp({ messages: list, messagesFrom: 0 });
        messages = list;
        sent = list.length;
      } else if (list.length > sent) {
        host.endpoint.sendApp({ messages: list.slice(sent), messagesFrom: sent });
        sent = list.length;
      }
    }
    if (deps.session.all !== entries) {
      entries = deps.session.all;
      host.endpoint.sendApp({ entries: deps.session.of(r.name) });
    }
  };
  try {
    const answer = await runWithDeadline(deps.activationTimeoutMs(), undefined, () =>
      host.hello.activate({
        api: withGuardedOps(scope.api, grants),
        dir: r.dir,
        entry: m.entry!,
        settingsKey: r.settingsKey,
        section: allSettings[r.settingsKey],
        layers: deps.settingLayers().map((l) => ({ name: l.name, value: l.value?.[r.settingsKey] as never })),
        grants,
        bridge: bwrap !== undefined && grants.net.length > 0,
        denied,
        uncaught: (error) =>
          deps.bus.emit("plugin_error", { plugin: ref, phase: "uncaught", message: errorText(error) }),
      }),
    );
    if (answer.problem) throw Object.assign(new Error(answer.problem), { phase: "settings" });
  } catch (error) {
    scope.revoke();
    await scope.dispose();
    throw error;
  }
  return scope;
}
