/** `keel remove <name>`: the plugin leaves the scope and its lock; the removed version is kept for rollback. */
import type { CliContext } from "@keel/extensions-api";
import { moveOut } from "@keel/installer";
import { installedName } from "../installed-name.ts";
import { guarded } from "../options.ts";
import { requiredRefusal } from "../policy.ts";
import { changing, scopeOf, UsageError } from "../scope.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const scope = scopeOf(options, context);
    const name = installedName(scope, args[0]!) ?? args[0]!;
    const required = requiredRefusal(context.installPolicy, name, "removed");
    if (required) throw new UsageError(required);
    const moved = await changing(scope, context, async () => moveOut(scope, name));
    if (!moved) throw new UsageError(`${args[0]} is not installed in ${scope.root}/plugins`);
    context.stdout(`removed ${name}\n`);
    return 0;
  });
}
