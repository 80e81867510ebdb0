/** `keel enable <name>`: takes the plugin off `plugins.disabled` in the scope's settings.json. */
import type { CliContext } from "@keel/extensions-api";
import { knownPlugin } from "../installed-name.ts";
import { guarded } from "../options.ts";
import { changing, scopeOf } from "../scope.ts";
import { setDisabled } from "../settings-file.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const scope = scopeOf(options, context);
    const name = knownPlugin(scope, args[0]!, context.listPlugins()) ?? args[0]!;
    const changed = await changing(scope, context, async () => setDisabled(scope, name, false));
    context.stdout(changed ? `enabled ${name}\n` : `${name} was not disabled there\n`);
    return 0;
  });
}
