/**
 * A manifest's catalogs and the plugins it takes from them (`catalog:<name>`): each catalog the manifest trusts
 * is read from where it says (a path beside the manifest, a git repository, an https URL), and each such
 * plugin resolved through the one catalog it names, at its exact version, to the source and sha512 that
 * catalog gives. Only the manifest's catalogs are read: a `catalog:` name it does not list is a problem.
 */
import { dirname } from "node:path";
import type { DistributionManifest, DistributionPlugin } from "@keel/extensions-api";
import type { CatalogRecord, Source } from "@keel/installer";

/** Where one plugin is fetched from, with what the lock records for it. */
export interface FetchTarget {
  plugin: DistributionPlugin;
  source: Source;
  integrity?: string;
  catalog?: string;
  recordAs?: string;
}

/** Reads every catalog the manifest trusts, by the name it trusts it under; problems name the catalog. */
export async function readTrustedCatalogs(
  manifest: DistributionManifest,
  file: string,
): Promise<{ records: CatalogRecord[]; problems: string[] }> {
  const records: CatalogRecord[] = [];
  const problems: string[] = [];
  if (manifest.catalogs.length === 0) return { records, problems };
  const { readCatalog } = await import("@keel/installer");
  for (const trusted of manifest.catalogs) {
    try {
      records.push(await readCatalog(trusted.source, dirname(file), trusted.name));
    } catch (error) {
      problems.push(`the catalog "${trusted.name}" (${trusted.source}): ${(error as Error).message}`);
    }
  }
  return { records, problems };
}

/** The fetch target of a `catalog:<name>` plugin, or a problem naming the plugin and the catalog. */
export async function catalogTarget(
  plugin: DistributionPlugin,
  records: CatalogRecord[],
  file: string,
): Promise<FetchTarget | string> {
  const what = `plugin ${plugin.name}@${plugin.version}`;
  const name = plugin.source.slice("catalog:".length);
  const record = records.find((r) => r.catalog.name === name);
  if (!record) {
    const trusted = records.map((r) => r.catalog.name).join(", ") || "none";
    return (
      `${what} comes from the catalog "${name}", which the manifest's "catalogs" do not name ` +
      `(it trusts: ${trusted}).`
    );
  }
  const { resolveName } = await import("@keel/installer");
  try {
    const found = resolveName([record], { name: plugin.name, range: plugin.version, qualifier: name }, dirname(file));
    if (found.version?.version !== undefined && found.version.version !== plugin.version)
      return `${what}: the catalog "${name}" lists no version ${plugin.version} of it.`;
    return {
      plugin,
      source: found.source,
      integrity: found.integrity,
      catalog: name,
      recordAs: `${plugin.name}@${plugin.version}@${name}`,
    };
  } catch (error) {
    return `${what}: ${(error as Error).message}`;
  }
}
