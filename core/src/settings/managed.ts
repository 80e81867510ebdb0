/**
 * The managed layer: settings an administrator puts at `/etc/keel/managed-settings.json` (or the file
 * `KEEL_MANAGED_SETTINGS` names, for tests). It sits above the user, the project and the command line, and
 * nothing below can undo it: its values replace, and its lists are added to the lists below (a deny rule or
 * a required plugin from below is kept, and no lower layer can remove one of its own). A few keys mean
 * something only here: which plugins may load at all, and which plugin catalogs may be used.
 */
import { z } from "@keel/extensions-api";
import { isPlainObject, union, type SettingsObject } from "./layers.js";

export const MANAGED_SETTINGS_FILE = "/etc/keel/managed-settings.json";

export function managedSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.KEEL_MANAGED_SETTINGS || MANAGED_SETTINGS_FILE;
}

/** The keys only the managed layer may set; elsewhere they are ignored with a warning. */
export const ManagedPolicySchema = z.object({
  plugins: z
    .object({
      /** When set, a plugin from outside the distribution loads only if it is listed. */
      allowed: z.array(z.string()).optional(),
      /** Plugins that never load, wherever they come from. */
      blocked: z.array(z.string()).default([]),
      /** Plugin catalogs (marketplaces) users may install from; read by the plugin installer. */
      allowedCatalogs: z.array(z.string()).optional(),
      /** Plugin catalogs (names or origins) never added nor used, a distribution's own included. */
      blockedCatalogs: z.array(z.string()).default([]),
    })
    .default({ blocked: [], blockedCatalogs: [] }),
});
export type ManagedPolicy = z.output<typeof ManagedPolicySchema>;
const MANAGED_ONLY = ["allowed", "blocked", "allowedCatalogs", "blockedCatalogs"] as const;

/** Lays the managed layer over `merged`: values replace, lists are added to, objects merge key by key. */
export function overlayManaged(merged: SettingsObject, managed: SettingsObject | undefined): SettingsObject {
  if (!managed) return merged;
  const out: SettingsObject = { ...merged };
  for (const [key, value] of Object.entries(managed)) {
    const below = out[key];
    if (isPlainObject(below) && isPlainObject(value)) out[key] = overlayManaged(below, value);
    else if (Array.isArray(below) && Array.isArray(value)) out[key] = union(below, value);
    else out[key] = value;
  }
  return out;
}

/** The managed-only keys, read from the managed layer alone; lower layers setting them are warned about. */
export function managedPolicy(
  managed: SettingsObject | undefined,
  managedFile: string,
  lower: (SettingsObject | undefined)[],
  warnings: string[],
): ManagedPolicy {
  for (const layer of lower) {
    const plugins = layer?.plugins;
    for (const key of MANAGED_ONLY)
      if (isPlainObject(plugins) && key in plugins)
        warnings.push(
          `Setting "plugins.${key}" is read only from the managed settings (${managedFile}); it was ignored here.`,
        );
  }
  const parsed = ManagedPolicySchema.safeParse(managed ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`).join("; ");
  // A broken policy must not loosen anything: nothing outside the distribution loads until it is fixed.
  warnings.push(
    `The managed settings ${managedFile} are invalid (${issues}); until they are fixed only the ` +
      `distribution's plugins load.`,
  );
  return { plugins: { allowed: [], blocked: [], blockedCatalogs: [] } };
}

/** `plugins.required` of every layer that applies: a list later layers add to and never shrink. */
export function requiredPlugins(layers: (SettingsObject | undefined)[]): string[] {
  const out = new Set<string>();
  for (const layer of layers) {
    const list = isPlainObject(layer?.plugins) ? (layer.plugins as SettingsObject).required : undefined;
    if (Array.isArray(list)) for (const name of list) if (typeof name === "string") out.add(name);
  }
  return [...out];
}
