/**
 * Reading a plugin's package.json and its `keel` manifest without running any of its code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PluginPackageSchema, type KeelManifest, type PluginPackage } from "@keel/extensions-api";

export type ManifestResult = { ok: true; pkg: PluginPackage } | { ok: false; name: string; error: string };

export function readManifest(dir: string): ManifestResult {
  const file = join(dir, "package.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "has no package.json" : `has an unreadable package.json (${(error as Error).message})`;
    return { ok: false, name: dir, error: `${dir} ${why}` };
  }
  const name = typeof (raw as { name?: unknown })?.name === "string" ? (raw as { name: string }).name : dir;
  if (typeof raw !== "object" || raw === null || !("keel" in raw)) {
    return { ok: false, name, error: `${file} has no "keel" field, so it is not a keel plugin. Add "keel": { "apiVersion": "^1.0.0", "entry": "./src/index.ts" }.` };
  }
  const parsed = PluginPackageSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `"${i.path.join(".")}": ${i.message}`).join("; ");
    return { ok: false, name, error: `invalid manifest in ${file}: ${issues}` };
  }
  return { ok: true, pkg: parsed.data };
}

/** Activation events: declared, or derived from what the plugin contributes. */
export function activationEvents(manifest: KeelManifest): string[] {
  if (manifest.activation && manifest.activation.length > 0) return manifest.activation;
  const c = manifest.contributes;
  if (c.tools.length > 0 || c.hooks.length > 0 || c.flags.length > 0) return ["onStartup"];
  const lazy = [
    ...c.commands.map((x) => `onCommand:${x}`),
    ...c.providers.map((x) => `onProvider:${x}`),
    ...c.modes.map((x) => `onMode:${x}`),
    ...c.cliCommands.map((x) => `onCliCommand:${x}`),
    ...c.ops.map((x) => `onOps:${x}`),
  ];
  // A plugin that declares nothing cannot be activated on demand, so it starts with the host.
  return lazy.length > 0 ? lazy : ["onStartup"];
}

/**
 * The section of settings.json that belongs to a plugin: `keel.settingsKey`, else the package name without
 * its scope and a `keel-plugin-` / `plugin-` prefix (`@acme/keel-plugin-notify` → `notify`).
 */
export function settingsKeyOf(pkg: Pick<PluginPackage, "name"> & { keel: { settingsKey?: string } }): string {
  return pkg.keel.settingsKey ?? pkg.name.replace(/^@[^/]+\//, "").replace(/^(keel-)?plugin-/, "");
}
