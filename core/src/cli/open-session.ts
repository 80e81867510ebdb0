/**
 * `CliContext.openSession`: more sessions in this process beside the runtime the command line started, each a
 * runtime of its own built as the main command builds one (same distribution, plugin folders, settings, flags
 * and workspace), with no mode. What `keel serve` holds its sessions with. The project's trust is the
 * remembered decision or `--trust`: nobody is at a terminal to ask.
 */
import type { OpenedSession, PluginRef, UiRequest, UiResponse } from "@keel/extensions-api";
import { KeelRuntime, type RuntimeOptions } from "../runtime/runtime.js";

/**
 * `owner`: the plugin whose command opens the session, which answers its questions through `ask`. `err`: where
 * the session's plugin errors and warnings are printed.
 */
export async function openSession(
  options: RuntimeOptions,
  owner: PluginRef,
  err: (text: string) => void,
  ask?: (request: UiRequest) => Promise<UiResponse | undefined>,
): Promise<OpenedSession> {
  const say = (text: string) => err(`${options.distribution?.command ?? "keel"}: ${text}\n`);
  const runtime = await KeelRuntime.create(
    { ...options, trust: { granted: options.trust?.granted, interactive: false } },
    (rt) => {
      rt.bus.on("plugin_error", (e) => say(`plugin ${e.plugin.name}@${e.plugin.version}: ${e.message}`));
      rt.bus.on("plugin_warning", (e) => say(`${e.plugin ? `plugin ${e.plugin.name}: ` : ""}${e.message}`));
    },
  );
  // A person may take their time to answer: no deadline.
  if (ask) runtime.hooks.tap(owner, "ui_request", { timeoutMs: Infinity }, (request) => ask(request));
  await runtime.pickModel();
  let closing: Promise<void> | undefined;
  return { runtime, close: () => (closing ??= runtime.shutdown("exit")) };
}
