/**
 * A source as typed (or as the lock recorded it) to what the installer fetches: a bare name goes through the
 * catalogs, which also give the sha512 the tarball must have and may mark the version deprecated.
 */
import type { CliContext } from "@keel/extensions-api";
import {
  cooldownFor,
  parseSource,
  resolveName,
  type CatalogRecord,
  type Cooldown,
  type EntryManifest,
  type Source,
} from "@keel/installer";
import { allCatalogs } from "./catalogs.ts";
import { blockedCatalogMessage, packageOf, pluginRefused } from "./policy.ts";
import { UsageError } from "./scope.ts";
import type { MarketplaceSettings } from "./settings.ts";

export interface Target {
  source: Source;
  integrity?: string;
  catalog?: string;
  /** What the lock records: the catalog query, so an update resolves it again. */
  recordAs?: string;
  /** The cooldown that applies (none when the version was named exactly). */
  cooldown?: Cooldown;
  /** A Claude Code entry's own manifest fields, written into the installed folder. */
  entryManifest?: EntryManifest;
  entryName?: string;
}

export function resolveSource(
  text: string,
  context: CliContext,
  settings: MarketplaceSettings,
  integrity?: string,
): Target {
  const source = parseSource(text, context.cwd);
  const policy = context.installPolicy;
  if (source.kind === "npm") {
    const refused = pluginRefused(policy, source.name);
    if (refused) throw new UsageError(`${refused}; it was not installed`);
    return { source, integrity, cooldown: cooldownFor(settings.minReleaseAge, source.range) };
  }
  if (source.kind !== "catalog") return { source, integrity };
  // A name only a blocked catalog lists is refused naming the policy, not reported as unknown.
  const lists = (r: CatalogRecord) =>
    (!source.qualifier || r.catalog.name === source.qualifier) && r.catalog.plugins.some((p) => p.name === source.name);
  const blocked = allCatalogs(context, true).find(lists);
  if (blocked && !allCatalogs(context).some(lists))
    throw new UsageError(`${blockedCatalogMessage(policy, blocked.catalog.name)}; ${source.name} was not installed`);
  const found = resolveName(allCatalogs(context), source, context.cwd, settings.minReleaseAge);
  for (const name of [found.plugin.name, packageOf(found.plugin.source)]) {
    const refused = name && pluginRefused(policy, name);
    if (refused) throw new UsageError(`${refused}; it was not installed`);
  }
  context.stderr(`${found.plugin.name}: found in the catalog "${found.catalog}"\n`);
  if (found.version?.deprecated)
    context.stderr(
      `${context.command}: ${found.plugin.name}@${found.version.version} is deprecated: ${found.version.deprecated}\n`,
    );
  if (found.renamedFrom) context.stderr(`${found.renamedFrom}: the catalog now lists it as ${found.plugin.name}\n`);
  const recordAs = `${found.plugin.name}@${source.range}@${found.catalog}`;
  const { manifest, strict } = found.plugin;
  return {
    ...(manifest && { entryManifest: { fields: manifest, strict: strict !== false }, entryName: found.plugin.name }),
    source: found.source,
    integrity: found.integrity ?? integrity,
    catalog: found.catalog,
    recordAs,
    cooldown: found.cooldown,
  };
}
