/**
 * `keel market add <path | git url | https url>`, `market list`, `market update [name]`, `market remove <name>`.
 * The managed settings' `plugins.allowedCatalogs` limits what can be added.
 */
import type { CliContext } from "@keel/extensions-api";
import { addCatalog, listCatalogs, removeCatalog, updateCatalogs } from "@keel/installer";
import { guarded } from "../options.ts";
import { UsageError } from "../scope.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const [action, target] = args;
    const home = context.keelHome;
    switch (action) {
      case "add": {
        if (!target) throw new UsageError(`market add needs a path, a git URL or an https URL`);
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
      case "list":
        for (const r of listCatalogs(home))
          context.stdout(
            `${r.catalog.name}  ${r.catalog.plugins.length} plugins  ${r.origin}  (updated ${r.updatedAt})\n`,
          );
        return 0;
      case "update":
        for (const r of await updateCatalogs(home, target))
          context.stdout(`updated the catalog "${r.catalog.name}" (${r.catalog.plugins.length} plugins)\n`);
        return 0;
      case "remove":
        if (!target) throw new UsageError(`market remove needs the catalog's name`);
        removeCatalog(home, target);
        context.stdout(`removed the catalog "${target}"\n`);
        return 0;
      default:
        throw new UsageError(`market ${action ?? ""}: expected add, list, update or remove`);
    }
  });
}
