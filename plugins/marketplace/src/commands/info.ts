/** `keel info <name>`: an installed plugin's lock entry and what catalogs say about the name. */
import { join } from "node:path";
import type { CliContext } from "@keel/extensions-api";
import { scopeLock } from "@keel/installer";
import { allCatalogs } from "../catalogs.ts";
import { guarded } from "../options.ts";

export function run(args: string[], options: Record<string, unknown>, context: CliContext): Promise<number> {
  return guarded(context, async () => {
    const name = args[0]!;
    const installed = [
      { scope: "user", entry: scopeLock({ kind: "user", root: context.keelHome }).plugins[name] },
      { scope: "project", entry: scopeLock({ kind: "project", root: join(context.cwd, ".keel") }).plugins[name] },
    ].filter((x) => x.entry);
    const catalogs = allCatalogs(context).flatMap((r) =>
      r.catalog.plugins.filter((p) => p.name === name).map((plugin) => ({ catalog: r.catalog.name, plugin })),
    );
    const plugin = context.listPlugins().find((p) => p.name === name);
    if (installed.length === 0 && catalogs.length === 0 && !plugin) {
      context.stderr(`${context.command}: no plugin named ${name} is installed or in a catalog\n`);
      return 1;
    }
    const info = { name, installed, loaded: plugin, catalogs };
    if (options.json) {
      context.stdout(`${JSON.stringify(info, null, 2)}\n`);
      return 0;
    }
    for (const { scope, entry } of installed)
      context.stdout(
        `${name}@${entry!.version} (${scope})\n  source: ${entry!.source}\n  ` +
          `capabilities: ${entry!.capabilities.join(", ") || "none"}\n  ` +
          `hooks: ${entry!.hooks.join(", ") || "none"}\n  installed: ${entry!.installedAt}\n`,
      );
    if (plugin) context.stdout(`  state: ${plugin.state}${plugin.reason ? ` (${plugin.reason})` : ""}\n`);
    if (plugin) context.stdout(`  runs: ${plugin.confined ? "confined to its capabilities" : "with your rights"}\n`);
    for (const { catalog, plugin: p } of catalogs)
      context.stdout(
        `in catalog "${catalog}": ${p.description ?? ""}\n  ` +
          `versions: ${
            p.versions
              .map((v) => `${v.version}${v.blocked ? " (blocked)" : v.deprecated ? " (deprecated)" : ""}`)
              .join(", ") || "any"
          }\n`,
      );
    return 0;
  });
}
