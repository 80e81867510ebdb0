/**
 * The per-kind activation wiring: which lazy plugins an activation event (`onCommand:/compact`,
 * `onTool:grep`) wakes, and the tools lazy plugins declare in full, offered to the model before they load.
 */
import { CONTRIBUTIONS, declaresName, type ContributionKind, type Tool } from "@keel/extensions-api";
import type { Contributions } from "./registries.js";
import { declaredTool } from "./declared-tools.js";
import type { PluginRecord } from "./plugin-record.js";

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
