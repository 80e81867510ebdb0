/** `keel enable <name>`: takes the plugin off `plugins.disabled` in the scope's settings.json. */
import type { CliContext } from "@keel/extensions-api";
import { guarded } from "../options.ts";
import { scopeOf } from "../scope.ts";
import { setDisabled } from "../settings-file.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const name = args[0]!;
    const changed = setDisabled(scopeOf(options, context), name, false);
    context.stdout(changed ? `enabled ${name}\n` : `${name} was not disabled there\n`);
    return 0;
  });
}
