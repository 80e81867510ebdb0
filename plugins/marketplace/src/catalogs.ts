/**
 * The catalogs a command sees: those the running distribution ships (written into its folder's `catalogs/`
 * by `dist build` from the manifest's trusted catalogs), then those the user added (`market add`). A
 * distribution whose manifest locks its catalogs (`lockCatalogs`) trusts exactly its own: no other is added.
 */
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { DistributionPackageSchema, type CliContext } from "@keel/extensions-api";
import { listCatalogs, type CatalogRecord } from "@keel/installer";
import { catalogBlocked } from "./policy.ts";
import { UsageError } from "./scope.ts";

/** The running distribution's own catalogs, and whether it lets the user add others. */
export interface ShippedCatalogs {
  records: CatalogRecord[];
  locked: boolean;
}

export function shippedCatalogs(context: CliContext): ShippedCatalogs {
  let field;
  try {
    field = DistributionPackageSchema.parse(
      JSON.parse(readFileSync(context.distributionFile, "utf8")),
    ).keelDistribution;
  } catch {
    // Not a built distribution's package.json (a manifest run by the test kit): it ships no catalogs.
    return { records: [], locked: false };
  }
  const names = new Set(field.catalogs.map((c) => c.name));
  const records = names.size === 0 ? [] : listCatalogs(dirname(context.distributionFile));
  return { records: records.filter((r) => names.has(r.catalog.name)), locked: field.lockCatalogs };
}

/**
 * Every catalog the command resolves names through: the distribution's first, then the user's; those the managed
 * `plugins.blockedCatalogs` names are left out (or, with `blocked`, the only ones returned).
 */
export function allCatalogs(context: CliContext, blocked = false): CatalogRecord[] {
  const shipped = shippedCatalogs(context).records;
  const own = new Set(shipped.map((r) => r.catalog.name));
  const all = [...shipped, ...listCatalogs(context.keelHome).filter((r) => !own.has(r.catalog.name))];
  return all.filter((r) => catalogBlocked(context, r) === blocked);
}

/** Refuses changing a catalog the distribution ships, and adding any when it locks its catalogs. */
export function checkCatalogChange(context: CliContext, change: { adding: boolean; name?: string }): void {
  const shipped = shippedCatalogs(context);
  const names = shipped.records.map((r) => r.catalog.name);
  if (change.adding && shipped.locked)
    throw new UsageError(
      `the ${context.command} distribution trusts only its own catalogs (${names.join(", ") || "none"}); ` +
        "it adds no other",
    );
  if (change.name !== undefined && names.includes(change.name))
    throw new UsageError(
      `the catalog "${change.name}" comes with the ${context.command} distribution; ` +
        "it changes only when the distribution is built again",
    );
}
