/** `keel search <words...>`: plugins of every added catalog matching all the words. */
import type { CliContext } from "@keel/extensions-api";
import { searchCatalogs } from "@keel/installer";
import { allCatalogs } from "../catalogs.ts";
import { guarded } from "../options.ts";
import { packageOf } from "../policy.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const records = allCatalogs(context);
    if (records.length === 0) {
      context.stderr(
        `${context.command}: no catalog is added; \`${context.command} market add <path|url>\` adds one\n`,
      );
      return 1;
    }
    // A plugin the managed settings block (by its name or its npm package) is not shown at all.
    const hits = searchCatalogs(records, args).filter(
      ({ plugin }) =>
        ![plugin.name, packageOf(plugin.source)].some((n) => n && context.installPolicy.blocked.includes(n)),
    );
    if (options.json) {
      context.stdout(`${JSON.stringify(hits, null, 2)}\n`);
      return 0;
    }
    if (hits.length === 0) context.stdout(`Nothing matches "${args.join(" ")}".\n`);
    for (const { catalog, plugin } of hits)
      context.stdout(
        `${plugin.name}@${catalog} ` +
          ` ${plugin.description ?? ""}${plugin.deprecated ? `  (deprecated: ${plugin.deprecated})` : ""}\n`,
      );
    return 0;
  });
}
