/**
 * Where each plugin of a manifest is: `keel` plugins beside the running distribution (they resolve from its
 * package.json, as its own plugins do), `path:` folders beside the manifest. Each must be the exact version
 * the manifest names, or the build would not repeat.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { DistributionPlugin } from "@keel/extensions-api";
import { findPackage } from "./packages.ts";

export interface ResolvedPlugin {
  plugin: DistributionPlugin;
  dir: string;
}

/** The plugin's folder, or a problem naming it and what to do. */
export function resolvePlugin(
  plugin: DistributionPlugin,
  manifestFile: string,
  distributionFile: string,
): ResolvedPlugin | string {
  const what = `plugin ${plugin.name}@${plugin.version}`;
  let dir: string | undefined;
  if (plugin.source === "keel") {
    dir = findPackage(dirname(distributionFile), plugin.name);
    if (!dir) return `${what}: no keel plugin of that name is installed with keel (${dirname(distributionFile)}).`;
  } else if (plugin.source.startsWith("path:")) {
    dir = resolve(dirname(manifestFile), plugin.source.slice("path:".length));
  } else {
    return `${what} comes from ${plugin.source}; only "keel" and "path:<folder>" plugins are found on disk.`;
  }
  let found: { name?: string; version?: string };
  try {
    found = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch (error) {
    return `${what}: ${dir} has no readable package.json (${(error as Error).message}).`;
  }
  if (found.name !== plugin.name || found.version !== plugin.version)
    return `${what}: ${dir} holds ${found.name}@${found.version}. Name the version that is there.`;
  return { plugin, dir };
}
