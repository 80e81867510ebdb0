/**
 * `keel remove <name>`: the plugin leaves the scope completely — its folder, the previous version kept for
 * rollback, its lock entry and its tarball in the npm cache — and, asking for each (`--yes` agrees), its
 * settings section and data folder. Nothing of it comes back on the next start or `update`.
 */
import { join } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import { pluginDir, purgePlugin } from "@keel/installer";
import { installedName } from "../installed-name.ts";
import { removeLeftovers, settingsKeyIn } from "../leftovers.ts";
import { guarded } from "../options.ts";
import { requiredRefusal } from "../policy.ts";
import { changing, scopeOf, UsageError } from "../scope.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const scope = scopeOf(options, context);
    const name = installedName(scope, args[0]!) ?? args[0]!;
    const required = requiredRefusal(context.installPolicy, name, "removed");
    if (required) throw new UsageError(required);
    const key = settingsKeyIn(pluginDir(scope, name), name);
    const removed = await changing(scope, context, async () => {
      const gone = await purgePlugin(scope, name, join(context.keelHome, "cache", "npm"));
      if (gone.length === 0) return gone;
      return [...gone, ...(await removeLeftovers(scope, name, key, context, options.yes === true))];
    });
    if (removed.length === 0) throw new UsageError(`${args[0]} is not installed in ${scope.root}/plugins`);
    context.stdout(`removed ${name}:\n${removed.map((r) => `  ${r}\n`).join("")}`);
    return 0;
  });
}
