/**
 * Installing a plugin whose `dependsOn` names a plugin that is not installed: keel says which and asks to
 * install that one too (from a catalog that lists the name, else from npm at the range), then tries again.
 */
import type { CliContext } from "@keel/extensions-api";
import { installPlugin, MissingDependencyError, type Installed, type InstallOptions } from "@keel/installer";
import { resolveSource, type Target } from "./resolve-source.ts";
import type { MarketplaceSettings } from "./settings.ts";

/** Plugins depending on plugins depending on …: past this many, something is circular or wrong. */
const MAX_DEPTH = 8;

export async function withDependencies(
  target: Target,
  base: InstallOptions,
  context: CliContext,
  settings: MarketplaceSettings,
  yes: boolean,
  depth = 0,
): Promise<Installed> {
  let options = base;
  for (;;) {
    try {
      return await installPlugin(target.source, { ...options, ...target, alwaysConfirm: true });
    } catch (error) {
      if (!(error instanceof MissingDependencyError) || depth >= MAX_DEPTH) throw error;
      context.stderr(`${context.command}: ${error.message}\n`);
      const question = `Install ${error.dependency} (${error.range}) too?`;
      if (!yes && !(await context.confirm(question))) throw error;
      const dependency = dependencySource(error, context, settings);
      const done = await withDependencies(dependency, options, context, settings, yes, depth + 1);
      if (done.outcome === "declined") throw error;
      options = { ...options, installed: new Map([...options.installed, [done.name, done.entry!.version]]) };
    }
  }
}

function dependencySource(error: MissingDependencyError, context: CliContext, settings: MarketplaceSettings): Target {
  try {
    return resolveSource(`${error.dependency}@${error.range}`, context, settings);
  } catch {
    return resolveSource(`npm:${error.dependency}@${error.range}`, context, settings);
  }
}
