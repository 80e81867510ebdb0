/**
 * `keel market add <path | git url | https url>`, `market list`, `market update [name]`, `market remove <name>`.
 * The managed settings' `plugins.allowedCatalogs` limits what can be added.
 */
import type { CliContext } from "@keel/extensions-api";
import { addCatalog, removeCatalog, updateCatalogs } from "@keel/installer";
import { allCatalogs, checkCatalogChange, shippedCatalogs } from "../catalogs.ts";
import { guarded } from "../options.ts";
import { UsageError } from "../scope.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const [action, target] = args;
    const home = context.keelHome;
    switch (action) {
      case "add": {
        if (!target) throw new UsageError(`market add needs a path, a git URL or an https URL`);
        checkCatalogChange(context, { adding: true });
        if (/^(git[:+]|.*\.git(#.*)?$)/.test(target) && !options.allowGit)
          throw new UsageError(`${target}: git catalogs are opt-in; add --allow-git`);
        const record = await addCatalog(home, target, {
          cwd: context.cwd,
          allowed: context.allowedCatalogs,
          managedFile: context.managedFile,
        });
        context.stdout(
          `added the catalog "${record.catalog.name}" (${record.catalog.plugins.length} plugins) ` +
            `from ${record.origin}\n`,
        );
        return 0;
      }
      case "list": {
        const shipped = new Set(shippedCatalogs(context).records.map((r) => r.catalog.name));
        for (const r of allCatalogs(context)) {
          const from = shipped.has(r.catalog.name) ? `, with ${context.command}` : "";
          context.stdout(
            `${r.catalog.name}  ${r.catalog.plugins.length} plugins  ${r.origin}  (updated ${r.updatedAt}${from})\n`,
          );
        }
        return 0;
      }
      case "update":
        if (target) checkCatalogChange(context, { adding: false, name: target });
        for (const r of await updateCatalogs(home, target))
          context.stdout(`updated the catalog "${r.catalog.name}" (${r.catalog.plugins.length} plugins)\n`);
        return 0;
      case "remove":
        if (!target) throw new UsageError(`market remove needs the catalog's name`);
        checkCatalogChange(context, { adding: false, name: target });
        removeCatalog(home, target);
        context.stdout(`removed the catalog "${target}"\n`);
        return 0;
      default:
        throw new UsageError(`market ${action ?? ""}: expected add, list, update or remove`);
    }
  });
}
