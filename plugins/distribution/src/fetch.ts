/**
 * Plugins a manifest takes from the npm registry or from a trusted catalog, installed by keel's installer into
 * the built folder's own scope (`<out>/bundled`): fetched without running any script, checked against the
 * sha512 their catalog gives (`apiVersion`, `dependsOn`, blocked versions too), their own dependencies
 * installed per plugin, the tree hashed and recorded in `<out>/bundled/keel.lock`. The manifest is the
 * consent: what each plugin contributes and may do is printed.
 */
import { join } from "node:path";
import type { FetchTarget } from "./catalog-sources.ts";

/** The built folder's own install scope: its npm plugins are installed there, its other plugins copied there. */
export const BUNDLED = (out: string) => ({ kind: "user" as const, root: join(out, "bundled") });

export interface FetchOptions {
  /** The folder relative sources resolve against (the manifest's). */
  cwd: string;
  registry?: string;
  cache: string;
  /** Plugins resolved from elsewhere (name → version), for `dependsOn`. */
  known: ReadonlyMap<string, string>;
  /** Git and remote-URL sources (a catalog may give one) are fetched only when allowed, as for `keel install`. */
  allowGit: boolean;
  allowRemote: boolean;
  log(text: string): void;
}

/** Installs each plugin; its folder by name, or the problems. */
export async function fetchPlugins(
  targets: FetchTarget[],
  out: string,
  options: FetchOptions,
): Promise<{ dirs: Map<string, string>; problems: string[] }> {
  const dirs = new Map<string, string>();
  const problems: string[] = [];
  if (targets.length === 0) return { dirs, problems };
  const installer = await import("@keel/installer");
  const scope = BUNDLED(out);
  const known = new Map(options.known);
  for (const { plugin, ...target } of targets) {
    try {
      const installed = await installer.installPlugin(target.source, {
        ...target,
        scope,
        cwd: options.cwd,
        registry: options.registry,
        cache: options.cache,
        command: "keel",
        installed: known,
        allowGit: options.allowGit,
        allowRemote: options.allowRemote,
        confirm: async (plan) => {
          options.log(
            `${plan.name}@${plan.version} from ${plan.source}${plan.catalog ? ` (catalog "${plan.catalog}")` : ""}: ` +
              `capabilities ${plan.capabilities.join(", ") || "none"}`,
          );
          return true;
        },
        warn: options.log,
      });
      const version = installed.entry?.version;
      if (version !== plugin.version)
        throw new Error(`its source holds version ${version}, not the ${plugin.version} the manifest names`);
      known.set(installed.name, plugin.version);
      dirs.set(plugin.name, installer.pluginDir(scope, installed.name));
    } catch (error) {
      problems.push(`plugin ${plugin.name}@${plugin.version}: ${(error as Error).message}`);
    }
  }
  return { dirs, problems };
}
