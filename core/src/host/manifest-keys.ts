/**
 * Settings paths that plugins' manifests name and the host's merge acts on: `keel.addingLists` (lists every layer
 * adds to) and `keel.locksWith` (keys a distribution's lock on another key also locks, because they would widen
 * it). Each is a key of the plugin's own section, or of a section it `reads` when the key starts with that
 * section's name.
 */
import type { PluginRecord } from "./plugin-record.js";

function qualified(r: PluginRecord, key: string): string {
  return r.manifest?.reads.includes(key.split(".")[0]!) ? key : `${r.settingsKey}.${key}`;
}

/** The paths (`"permissions.deny"`, `"hooks.*"`) whose lists every layer adds to. */
export function addingLists(records: readonly PluginRecord[]): string[] {
  return records.flatMap((r) => (r.manifest?.addingLists ?? []).map((key) => qualified(r, key)));
}

/** The keys `locked` locks too, beyond itself (`permissions.mode` locked → `permissions.allow`). */
export function lockedWith(records: readonly PluginRecord[], locked: readonly string[]): string[] {
  const out = new Set<string>();
  for (const r of records)
    for (const [key, others] of Object.entries(r.manifest?.locksWith ?? {}))
      if (locked.includes(qualified(r, key)))
        for (const other of others) if (!locked.includes(qualified(r, other))) out.add(qualified(r, other));
  return [...out];
}
