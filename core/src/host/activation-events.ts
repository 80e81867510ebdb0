/**
 * The per-kind activation wiring: a manifest's activation events, which lazy plugins an activation event
 * (`onCommand:/compact`, `onTool:grep`) wakes, and the tools lazy plugins declare in full, offered to the model
 * before they load.
 */
import {
  CONTRIBUTION_KINDS,
  CONTRIBUTIONS,
  contributionName,
  declaresName,
  type ContributionKind,
  type KeelManifest,
  type Tool,
} from "@keel/extensions-api";
import type { Contributions } from "./registries.js";
import { declaredTool } from "./declared-tools.js";
import type { PluginRecord } from "./plugin-record.js";

/**
 * Activation events: declared, or derived from what the plugin contributes. A plugin contributing a kind that
 * cannot be lazy (`CONTRIBUTIONS`), a hook, a tool not declared in full, or a `prefix*` command starts with the
 * host; otherwise it waits for any of its contributions to be used.
 */
export function activationEvents(manifest: KeelManifest): string[] {
  if (manifest.activation && manifest.activation.length > 0) return manifest.activation;
  const c = manifest.contributes;
  const eager =
    c.hooks.length > 0 ||
    c.tools.some((t) => typeof t === "string") ||
    c.commands.some((name) => name.endsWith("*")) ||
    CONTRIBUTION_KINDS.some((kind) => !CONTRIBUTIONS[kind].lazy && c[kind].length > 0);
  if (eager) return ["onStartup"];
  const lazy = [
    ...CONTRIBUTION_KINDS.flatMap((kind) =>
      (c[kind] as (string | { name: string })[]).map(
        (entry) => `${CONTRIBUTIONS[kind].event}:${contributionName(entry)}`,
      ),
    ),
    // Providers declared in data. (A plugin serving provider APIs is activated by activateProviderApiServers.)
    ...manifest.providers.map((p) => `${CONTRIBUTIONS.providers.event}:${p.id}`),
  ];
  // A plugin that declares nothing cannot be activated on demand, so it starts with the host.
  return lazy.length > 0 ? lazy : ["onStartup"];
}

/** Whether `kind`'s contribution `name` wakes this lazy plugin; `*` matches any contribution of that kind. */
export function firesFor(r: PluginRecord, kind: ContributionKind, name: string): boolean {
  if (r.state !== "lazy") return false;
  const prefix = `${CONTRIBUTIONS[kind].event}:`;
  return r.events.some((e) => declaresName([e], prefix + name) || (name === "*" && e.startsWith(prefix)));
}

/** Whether the lazy plugin waits for exactly `kind`'s contribution `name`. */
export function waitsFor(r: PluginRecord, kind: ContributionKind, name: string): boolean {
  return r.state === "lazy" && r.events.includes(`${CONTRIBUTIONS[kind].event}:${name}`);
}

/**
 * Offers lazy plugins' tools declared in full, so the model sees them; the first call activates the plugin
 * (`activate`) and runs what it registered.
 */
export function offerDeclaredTools(
  records: readonly PluginRecord[],
  contributions: Contributions,
  activate: (r: PluginRecord) => Promise<boolean>,
): void {
  for (const r of records) {
    if (r.state !== "lazy" || r.events.includes("onStartup")) continue;
    for (const entry of r.manifest!.contributes.tools) {
      if (typeof entry === "string" || !waitsFor(r, "tools", entry.name)) continue;
      const tool = declaredTool(entry, () => registeredTool(r, entry.name, contributions, activate));
      (r.offered ??= []).push(contributions.tools.add(entry.name, tool, r));
    }
  }
}

async function registeredTool(
  r: PluginRecord,
  name: string,
  contributions: Contributions,
  activate: (r: PluginRecord) => Promise<boolean>,
): Promise<Tool> {
  if (!(await activate(r)))
    throw new Error(`The tool "${name}" is unavailable: plugin ${r.name} could not be activated (${r.reason}).`);
  const entry = contributions.tools.list().find((e) => e.owner.name === r.name && e.declared === name);
  if (!entry) {
    throw new Error(
      `Plugin ${r.name} declares the tool "${name}" in keel.contributes.tools but did not register it when ` +
        "activated, so nothing was run. The plugin's author must register it in activate() or remove it " +
        "from the manifest.",
    );
  }
  return entry.item;
}
