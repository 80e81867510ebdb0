/**
 * `keel install [source]`: one plugin from any source, or (no source) everything the scope's keel.lock lists.
 * A bare name is resolved through the catalogs and says which catalog it came from.
 */
import type { CliContext } from "@keel/extensions-api";
import { installFromLock, scopeLock, type Scope } from "@keel/installer";
import { withDependencies } from "../dependencies.ts";
import { guarded, installOptions } from "../options.ts";
import { resolveSource } from "../resolve-source.ts";
import { changing, scopeFlag, scopeOf } from "../scope.ts";
import type { MarketplaceSettings } from "../settings.ts";

export function run(
  args: string[],
  options: Record<string, unknown>,
  context: CliContext,
  settings: MarketplaceSettings,
): Promise<number> {
  return guarded(context, async () => {
    const scope = scopeOf(options, context);
    return changing(scope, context, () => install(args[0], scope, options, context, settings));
  });
}

async function install(
  text: string | undefined,
  scope: Scope,
  options: Record<string, unknown>,
  context: CliContext,
  settings: MarketplaceSettings,
): Promise<number> {
  const base = installOptions(scope, context, settings, options);
  if (text === undefined) {
    const count = Object.keys(scopeLock(scope).plugins).length;
    if (count === 0) {
      context.stderr(`${context.command}: ${scope.root}/keel.lock lists no plugins; nothing to install.\n`);
      return 0;
    }
    const results = await installFromLock(base);
    for (const r of results) context.stdout(`${r.outcome === "kept" ? "up to date" : r.outcome}: ${r.name}\n`);
    return results.some((r) => r.outcome === "declined") ? 1 : 0;
  }
  const sha512 = typeof options.sha512 === "string" ? options.sha512 : undefined;
  const target = resolveSource(text, context, settings, sha512);
  const done = await withDependencies(target, base, context, settings, options.yes === true);
  if (done.outcome === "declined") {
    context.stderr(`${context.command}: not installed (declined). Run again with --yes to agree without asking.\n`);
    return 1;
  }
  context.stdout(
    `installed ${done.name}@${done.entry!.version}${scope.kind === "project" ? " in the project" : ""}; ` +
      `\`${context.command} list${scopeFlag(scope)}\` shows it.\n`,
  );
  return 0;
}
