/** `keel disable <name>`: adds the plugin to `plugins.disabled` in the scope's settings.json; it stays installed. */
import type { CliContext } from "@keel/extensions-api";
import { knownPlugin } from "../installed-name.ts";
import { guarded } from "../options.ts";
import { requiredRefusal } from "../policy.ts";
import { changing, scopeOf, UsageError } from "../scope.ts";
import { setDisabled } from "../settings-file.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const scope = scopeOf(options, context);
    const name = knownPlugin(scope, args[0]!, context.listPlugins());
    if (!name)
      throw new UsageError(
        `no plugin named ${args[0]} is installed or loaded here, so nothing was disabled; ` +
          `\`${context.command} list\` shows the plugins and their names`,
      );
    const required = requiredRefusal(context.installPolicy, name, "disabled");
    if (required) throw new UsageError(required);
    const changed = await changing(scope, context, async () => setDisabled(scope, name, true));
    context.stdout(
      changed
        ? `disabled ${name}; \`${context.command} enable ${name}\` turns it back on\n`
        : `${name} was already disabled\n`,
    );
    return 0;
  });
}
