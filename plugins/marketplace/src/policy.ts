/**
 * The managed settings' policy tiers as the installer commands apply them: plugins required (never disabled nor
 * removed), allowed (only these installed) and blocked (never installed, hidden from search), and catalogs
 * allowed and blocked (a blocked catalog is not used, even one the distribution ships). Every refusal names the
 * setting and the file it is in.
 */
import type { CliContext, InstallPolicy } from "@keel/extensions-api";
import { catalogListed, type CatalogRecord } from "@keel/installer";

const where = (policy: InstallPolicy) => `the managed settings (${policy.managedFile})`;

/** Why the policy refuses installing the plugin `name` (a catalog entry's or a package's), or undefined. */
export function pluginRefused(policy: InstallPolicy, name: string): string | undefined {
  if (policy.blocked.includes(name)) return `${name} is blocked by plugins.blocked of ${where(policy)}`;
  if (policy.allowed && !policy.allowed.includes(name))
    return `${name} is not in plugins.allowed of ${where(policy)}, so it cannot be installed; ask your administrator`;
  return undefined;
}

/** Why the policy refuses disabling or removing `name`, or undefined. */
export function requiredRefusal(policy: InstallPolicy, name: string, doing: "disabled" | "removed") {
  if (!policy.required.includes(name)) return undefined;
  return (
    `${name} is required (plugins.required of the distribution, your settings or ${where(policy)}), so it ` +
    `cannot be ${doing}; keel does not run without it`
  );
}

/** Whether a catalog is blocked by `plugins.blockedCatalogs`. */
export function catalogBlocked(context: CliContext, record: CatalogRecord): boolean {
  const list = context.installPolicy.blockedCatalogs;
  return list.length > 0 && catalogListed(list, { name: record.catalog.name, origin: record.origin }, context.cwd);
}

export const blockedCatalogMessage = (policy: InstallPolicy, name: string) =>
  `the catalog "${name}" is blocked by plugins.blockedCatalogs of ${where(policy)}`;

/** The npm package name a catalog entry installs, when its source is npm's. */
export function packageOf(source: string): string | undefined {
  return /^npm:((?:@[^/@]+\/)?[^@]+)/.exec(source)?.[1];
}
