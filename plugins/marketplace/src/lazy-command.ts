/**
 * A CLI command whose body lives in its own module, imported when the command runs: registering the nine
 * commands costs nothing, and only the one used loads the installer (and through it npm's libraries).
 */
import type { CliCommandSpec, CliContext } from "@keel/extensions-api";
import type { MarketplaceSettings } from "./settings.ts";

export type CommandBody = (
  args: string[],
  options: Record<string, unknown>,
  context: CliContext,
  settings: MarketplaceSettings,
) => Promise<number>;

export function lazy(
  spec: Omit<CliCommandSpec, "run">,
  load: () => Promise<{ run: CommandBody }>,
  settings: MarketplaceSettings,
): CliCommandSpec {
  return { ...spec, run: async (args, options, context) => (await load()).run(args, options, context, settings) };
}
