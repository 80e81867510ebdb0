/** `keel disable <name>`: adds the plugin to `plugins.disabled` in the scope's settings.json; it stays installed. */
import type { CliContext } from "@keel/extensions-api";
import { guarded } from "../options.ts";
import { requiredRefusal } from "../policy.ts";
import { changing, scopeOf, UsageError } from "../scope.ts";
import { setDisabled } from "../settings-file.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const name = args[0]!;
    const required = requiredRefusal(context.installPolicy, name, "disabled");
    if (required) throw new UsageError(required);
    const scope = scopeOf(options, context);
    const changed = await changing(scope, context, async () => setDisabled(scope, name, true));
    context.stdout(
      changed
        ? `disabled ${name}; \`${context.command} enable ${name}\` turns it back on\n`
        : `${name} was already disabled\n`,
    );
    return 0;
  });
}
