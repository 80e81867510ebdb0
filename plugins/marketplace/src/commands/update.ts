/**
 * `keel update [name]`: fetches each installed plugin's source again (an npm range resolves to its newest
 * version) and installs what changed; asks again when the update declares more capabilities or hooks.
 * `keel update --rollback <name>` puts the previous version back.
 */
import type { CliContext } from "@keel/extensions-api";
import { installPlugin, rollBack, scopeLock, type Scope } from "@keel/installer";
import { installedName } from "../installed-name.ts";
import { guarded, installOptions } from "../options.ts";
import { resolveSource } from "../resolve-source.ts";
import { changing, scopeOf, UsageError } from "../scope.ts";
import type { MarketplaceSettings } from "../settings.ts";

export function run(
  args: string[],
  options: Record<string, unknown>,
  context: CliContext,
  settings: MarketplaceSettings,
): Promise<number> {
  return guarded(context, async () => {
    const scope = scopeOf(options, context);
    return changing(scope, context, () => update(args[0], scope, options, context, settings));
  });
}

async function update(
  typed: string | undefined,
  scope: Scope,
  options: Record<string, unknown>,
  context: CliContext,
  settings: MarketplaceSettings,
): Promise<number> {
  const lock = scopeLock(scope);
  const name = typed && (installedName(scope, typed) ?? typed);
  if (options.rollback) {
    if (!name)
      throw new UsageError(`--rollback needs the plugin's name: \`${context.command} update --rollback <name>\``);
    const entry = rollBack(scope, name);
    context.stdout(`rolled back ${name} to ${entry.version}\n`);
    return 0;
  }
  const names = name ? [name] : Object.keys(lock.plugins);
  if (name && !lock.plugins[name])
    throw new UsageError(`${name} is not installed${scope.kind === "project" ? " in the project" : ""}`);
  if (names.length === 0) {
    const where = scope.kind === "project" ? "in this project" : `for ${context.command}`;
    context.stdout(`Nothing to update: no plugin is installed ${where} (\`${context.command} install <source>\`).\n`);
    return 0;
  }
  let failed = false;
  for (const n of names) {
    const entry = lock.plugins[n]!;
    if (entry.linked) {
      context.stdout(`linked: ${n} (a folder you develop; nothing to update)\n`);
      continue;
    }
    // One plugin that cannot be updated does not keep the others from it.
    const outcome = await guarded(context, async () => {
      const target = resolveSource(entry.source, context, settings);
      const done = await installPlugin(target.source, {
        ...installOptions(scope, context, settings, options),
        ...target,
        // Sources in the lock were opted into when first installed.
        allowGit: true,
        allowRemote: true,
        current: { name: n, integrity: entry.integrity, version: entry.version },
      });
      context.stdout(
        done.outcome === "installed"
          ? `updated ${n}: ${entry.version} → ${done.entry!.version}\n`
          : done.outcome === "unchanged"
            ? `up to date: ${n}@${entry.version}\n`
            : `not updated (declined): ${n}\n`,
      );
      return done.outcome === "declined" ? 1 : 0;
    });
    if (outcome !== 0) failed = true;
  }
  return failed ? 1 : 0;
}
