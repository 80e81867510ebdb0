/**
 * A bare name (`notify`, `notify@^1`, `notify@acme`) through the added catalogs: which catalog lists it (an
 * ambiguous name is refused unless qualified), which of its versions fits the range and is not blocked, and
 * the source and sha512 to install it from.
 */
import maxSatisfying from "semver/ranges/max-satisfying.js";
import type { CatalogPlugin, CatalogVersion } from "@keel/extensions-api/catalog";
import { catalogSource, type CatalogRecord } from "./catalogs.ts";
import { RefusedError } from "./check.ts";
import { cooldownFor, tooYoung, type Cooldown } from "./cooldown.ts";
import { parseSource, type Source } from "./source.ts";

export interface Resolved {
  /** The cooldown that applied to the catalog's versions, for the installer to apply to the source too. */
  cooldown?: Cooldown;
  catalog: string;
  plugin: CatalogPlugin;
  version: CatalogVersion | undefined;
  source: Source;
  integrity?: string;
  /** The name asked for, when the catalog lists the plugin under a new one. */
  renamedFrom?: string;
}

export function resolveName(
  records: CatalogRecord[],
  wanted: { name: string; range: string; qualifier?: string },
  cwd: string,
  minReleaseAge?: string,
): Resolved {
  const cooldown = cooldownFor(minReleaseAge, wanted.range);
  // A catalog that renamed the plugin (Claude Code's `renames`) finds it under its new name.
  const renamed = records.map((r) => r.catalog.renames?.[wanted.name]).find((n) => n !== undefined);
  if (renamed && !records.some((r) => r.catalog.plugins.some((p) => p.name === wanted.name)))
    return { ...resolveName(records, { ...wanted, name: renamed }, cwd, minReleaseAge), renamedFrom: wanted.name };
  const hits = records.flatMap((record) =>
    record.catalog.plugins.filter((p) => p.name === wanted.name).map((plugin) => ({ record, plugin })),
  );
  const chosen = wanted.qualifier ? hits.filter((h) => h.record.catalog.name === wanted.qualifier) : hits;
  if (chosen.length === 0) {
    const where = wanted.qualifier ? `the catalog "${wanted.qualifier}"` : "any added catalog";
    const hint = records.length === 0 ? " (none is added: `keel market add <path|url>`)" : "";
    throw new RefusedError(
      `no plugin named "${wanted.name}" in ${where}${hint}; install from npm with ` +
        `npm:${wanted.name}, or search with \`keel search\``,
    );
  }
  if (chosen.length > 1)
    throw new RefusedError(
      `"${wanted.name}" is in more than one catalog; say ` +
        `which: ${chosen.map((h) => `${wanted.name}@${h.record.catalog.name}`).join(", ")}`,
    );
  const { record, plugin } = chosen[0]!;
  const where = `${wanted.name} in the catalog "${record.catalog.name}"`;
  let version: CatalogVersion | undefined;
  if (plugin.versions.length > 0) {
    const fits = plugin.versions.filter((v) => maxSatisfying([v.version], wanted.range) !== null);
    const unblocked = fits.filter((v) => !v.blocked);
    const usable = unblocked.filter((v) => !cooldown || !v.published || new Date(v.published) <= cooldown.notBefore);
    if (cooldown && usable.length === 0 && unblocked.length > 0)
      throw tooYoung(
        `${where} in ${wanted.range}`,
        cooldown,
        `${wanted.name}@${maxSatisfying(
          unblocked.map((v) => v.version),
          wanted.range,
        )}`,
      );
    const best = maxSatisfying(
      usable.map((v) => v.version),
      wanted.range,
    );
    version = usable.find((v) => v.version === best);
    if (!version) {
      const blocked = fits.find((v) => v.blocked);
      throw new RefusedError(
        blocked
          ? `${where}: version ${blocked.version} is blocked (${blocked.blocked}), and no other ` +
              `version fits ${wanted.range}`
          : `${where} has no version in ${wanted.range} (it lists ${plugin.versions.map((v) => v.version).join(", ")})`,
      );
    }
  }
  const written = version?.source ?? plugin.source;
  // A Claude Code entry whose source keel cannot take says why, instead of failing as a path.
  if (written.startsWith("unsupported:"))
    throw new RefusedError(`${where}: ${written.slice(12)}; keel cannot install it`);
  const text = catalogSource(written, record);
  let source = parseSource(text, record.origin.startsWith("/") ? record.origin : cwd);
  if (source.kind === "npm" && version) source = { ...source, range: version.version };
  if (source.kind === "catalog")
    throw new RefusedError(`${where}: its source "${text}" is not one keel can fetch (npm:, git:, a URL or a path)`);
  return { catalog: record.catalog.name, plugin, version, source, integrity: version?.integrity, cooldown };
}

/** Plugins of every catalog whose name, description or keywords contain every word (case-insensitive). */
export function searchCatalogs(
  records: CatalogRecord[],
  words: string[],
): { catalog: string; plugin: CatalogPlugin }[] {
  const needles = words.map((w) => w.toLowerCase());
  return records.flatMap((record) =>
    record.catalog.plugins
      .filter((p) => {
        const hay = [p.name, p.description ?? "", ...p.keywords].join(" ").toLowerCase();
        return needles.every((n) => hay.includes(n));
      })
      .map((plugin) => ({ catalog: record.catalog.name, plugin })),
  );
}
